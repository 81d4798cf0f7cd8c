//! The pt-BR catalog. It follows the terms of the pt-BR edition of the
//! envelope documentation ("tool", "ação", "campo") and says the same thing
//! as the English one, as directly: the recovery hints and steering lines
//! steer the model in this locale too.

use super::{CodeRecovery, CustomerWords, FieldWords, SizeWords, SteeringWords, TypeWords, Words};

pub(super) const WORDS: Words = Words {
    recovery: CodeRecovery {
        missing_discriminator: "Adicione o argumento action com o nome de uma das ações disponíveis e chame a tool de novo.",
        unknown_action: "Chame a tool de novo com uma das ações disponíveis.",
        validation_error: "Corrija os argumentos indicados acima e chame a tool de novo.",
        missing_required_field: "Adicione o campo que falta e chame a tool de novo.",
        internal_error: "Não tente de novo às cegas: a mesma chamada provavelmente vai falhar outra vez. Diga ao usuário que a tool falhou e informe o correlation id, se houver um.",
        rate_limited: "Aguarde o período de retry-after e faça a mesma chamada de novo.",
        unauthorized: "Não tente de novo. As credenciais foram rejeitadas; peça ao usuário que faça login de novo.",
        forbidden: "Não tente de novo nem procure outro caminho. Diga ao usuário que isto exige um acesso que ele não tem.",
        not_found: "Confira o identificador: consulte o item ou liste os disponíveis e chame de novo com um que exista.",
        conflict: "Leia o estado atual de novo e decida se a alteração ainda se aplica.",
        timeout: "Tente de novo uma vez após uma breve espera; se o tempo esgotar outra vez, diga ao usuário que o serviço está lento.",
        server_busy: "O servidor está sobrecarregado e recusando chamadas: aguarde e faça a mesma chamada de novo.",
        deprecated: "Use o substituto indicado na mensagem e chame de novo.",
        auth_required: "Peça ao usuário que se autentique e chame de novo. Nunca passe credenciais como argumentos da tool.",
        handoff_upstream_unavailable: "O servidor upstream está indisponível: aguarde e faça a mesma chamada de novo.",
        handoff_namespace_mismatch: "Chame a tool no namespace indicado na mensagem.",
        handoff_connecting: "A conexão com o upstream ainda está sendo estabelecida: aguarde um momento e faça a mesma chamada de novo.",
    },

    field: FieldWords {
        line: |wrong, sent, expected| format!("{wrong}. Você enviou: {sent}. Esperado: {expected}."),
        nothing: "nada",
        characters: |n| format!("{n} {}", if n == 1 { "caractere" } else { "caracteres" }),
        empty_array: "um array vazio",
        array_of: |n| format!("um array de {n} {}", if n == 1 { "item" } else { "itens" }),
        empty_object: "um objeto vazio",
        object_with_keys: |n, keys, more| {
            let noun = if n == 1 { "a chave" } else { "as chaves" };
            match more {
                0 => format!("um objeto com {noun} {keys}"),
                more => format!("um objeto com {noun} {keys} e mais {more}"),
            }
        },
        and_more: |n| format!(" e mais {n}"),

        missing_required: "Campo obrigatório ausente",
        a_value: "um valor",
        wrong_type: "Tipo incorreto",
        types: TypeWords {
            string: "uma string",
            number: "um número",
            integer: "um inteiro",
            boolean: "um booleano (true ou false)",
            object: "um objeto",
            array: "um array",
            null: "null",
            date: "uma data",
            other: "um valor de outro tipo",
        },
        a_value_of_type: |name| format!("um valor do tipo {name}"),

        not_multiple_of: |d| format!("Não é múltiplo de {d}"),
        a_multiple_of: |d| format!("um múltiplo de {d}"),
        not_multiple_of_step: "Não é múltiplo do passo exigido",
        a_multiple_of_step: "um múltiplo do passo exigido",

        invalid_union: (
            "Não corresponde a nenhuma das formas permitidas",
            "um valor que corresponda a uma das formas permitidas",
        ),
        invalid_key: ("Chave inválida", "chaves na forma permitida"),
        invalid_element: ("Elemento inválido", "elementos na forma permitida"),
        failed_check: "Não passou em uma verificação",
        passing_value: "um valor que passe nesta verificação",
        duplicate_items: "Tem itens repetidos",

        invalid_format: |name| format!("Formato de {name} inválido"),
        formats: FORMATS,
        a_valid: |name| format!("um valor válido no formato {name}"),
        pattern_mismatch: "Não corresponde ao padrão exigido",
        matching_pattern: |p| format!("texto que corresponda ao padrão {p}"),
        matching_field_pattern: "texto que corresponda ao padrão do campo",
        no_format: ("Formato inválido", "um valor no formato do campo"),

        not_allowed_value: ("Valor não permitido", "um dos valores permitidos"),
        not_the_allowed_value: "Não é o valor permitido",
        not_one_of_allowed: "Não é um dos valores permitidos",
        one_of: |values| format!("um destes: {values}"),
        exactly: |value| format!("exatamente {value}"),

        unknown_keys_unnamed:
            "Chaves não reconhecidas. Você enviou: chaves que este objeto não tem. Esperado: apenas as chaves declaradas.",
        unknown_key: |k| {
            format!("Chave não reconhecida {k}. Você enviou: {k}. Esperado: apenas as chaves declaradas; remova-a.")
        },
        unknown_keys: |k| {
            format!("Chaves não reconhecidas {k}. Você enviou: {k}. Esperado: apenas as chaves declaradas; remova-as.")
        },

        size: SizeWords {
            too_short: "Curto demais",
            too_long: "Longo demais",
            too_few_items: "Itens de menos",
            too_many_items: "Itens demais",
            too_few_entries: "Entradas de menos",
            too_many_entries: "Entradas demais",
            too_small: "Pequeno demais",
            too_large: "Grande demais",
            too_early: "Cedo demais",
            too_late: "Tarde demais",
            character: ("caractere", "caracteres"),
            item: ("item", "itens"),
            entry: ("entrada", "entradas"),
            byte: ("byte", "bytes"),
            in_range: "um valor dentro do intervalo permitido",
            on_or_after: |v| format!("uma data a partir de {v}"),
            after: |v| format!("uma data posterior a {v}"),
            on_or_before: |v| format!("uma data até {v}"),
            before: |v| format!("uma data anterior a {v}"),
            at_least: |q| format!("pelo menos {q}"),
            more_than: |q| format!("mais de {q}"),
            at_most: |q| format!("no máximo {q}"),
            fewer_than: |q| format!("menos de {q}"),
            greater_than: |v| format!("um valor maior que {v}"),
            less_than: |v| format!("um valor menor que {v}"),
        },
    },

    customer: CustomerWords {
        sign_in: "Você precisa fazer login para continuar.",
        forbidden: "Você não tem permissão para fazer isso. Se precisar, peça acesso a um administrador.",
        failed: "Algo deu errado do nosso lado.",
        failed_under_id: |id| format!("Algo deu errado do nosso lado. O problema foi registrado com a referência {id}."),
        rate_limited: "O serviço está recebendo muitas solicitações agora. Tente novamente em instantes.",
        not_found: "Não encontramos o que você pediu.",
        timeout: "O serviço demorou demais para responder. Tente novamente em instantes.",
        conflict: "Isso foi alterado por outra solicitação ao mesmo tempo. Confira e tente novamente.",
        unavailable: "Um serviço do qual dependemos está indisponível no momento. Tente novamente mais tarde.",
        rejected: "Não foi possível concluir a solicitação.",
        step_up: "Isso precisa de um acesso que você ainda não concedeu. Aprove as permissões solicitadas e tente novamente.",
    },

    steering: SteeringWords {
        validation_recovery: "Corrija os campos acima e chame a tool de novo. Não explique o erro.",
        cut: " caracteres cortados]",
        repeat: |count| format!("Nada mudou desde a última tentativa: a mesma falha de novo ({count} seguidas)."),
        stop: |count| format!("Pare de tentar: esta chamada falhou do mesmo jeito {count} vezes seguidas e nada mudou."),
        stop_recovery: "Não faça esta chamada de novo. Diga ao usuário o que falhou e que tentar de novo não ajudou.",
        nothing_found: |what, query| {
            format!(
                "Resultado: 0 {what}{query}.\nA consulta foi executada e não encontrou nada: esta é uma resposta \
                 válida, não um erro. Não repita a mesma consulta."
            )
        },
        next_step: "\nPróximo passo: ",
    },
};

/// The pt-BR names of the formats and what a valid value of each looks like.
#[rustfmt::skip]
const FORMATS: &[(&[&str], &str, &str)] = &[
    (&["email"], "email", "um endereço de email válido"),
    (&["url", "uri"], "URL", "uma URL válida, como https://example.com/page"),
    (&["uuid", "guid"], "UUID", "um UUID, como 123e4567-e89b-12d3-a456-426614174000"),
    (&["datetime", "date-time"], "data e hora", "uma data e hora ISO 8601, como 2026-01-31T09:30:00Z"),
    (&["date"], "data", "uma data ISO 8601, como 2026-01-31"),
    (&["time"], "hora", "uma hora ISO 8601, como 09:30:00"),
    (&["duration"], "duração", "uma duração ISO 8601, como P3DT4H"),
    (&["ipv4"], "IPv4", "um endereço IPv4, como 192.0.2.1"),
    (&["ipv6"], "IPv6", "um endereço IPv6, como 2001:db8::1"),
    (&["cidrv4"], "faixa IPv4", "uma faixa IPv4 em notação CIDR, como 192.0.2.0/24"),
    (&["cidrv6"], "faixa IPv6", "uma faixa IPv6 em notação CIDR, como 2001:db8::/32"),
    (&["e164"], "telefone", "um número de telefone no formato E.164, como +14155550123"),
    (&["base64"], "base64", "texto codificado em base64"),
    (&["base64url"], "base64url", "texto codificado em base64url"),
    (&["jwt"], "JWT", "um JSON Web Token"),
    (&["hostname"], "nome de host", "um nome de host, como api.example.com"),
];
