// The shared-vector runner, written once for Node (test/vectors.test.mjs) and
// the browser (test/browser/page.html): no Node built-ins. It takes the
// package's public API as a parameter and the vector files as parsed JSON, and
// does what vectors/README.md's table says for each kind of case.

/** Expands `$repeat` and `$concat` anywhere in a value. */
export function expand(value) {
  if (Array.isArray(value)) return value.map(expand);
  if (value === null || typeof value !== 'object') return value;
  if ('$repeat' in value) {
    const unit = expand(value.$repeat);
    if (Array.isArray(unit)) return Array.from({ length: value.count }, () => unit).flat();
    return unit.repeat(value.count);
  }
  if ('$concat' in value) return value.$concat.map(expand).join('');
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item)]));
}

/** Where two strings part, briefly: some expected strings are a megabyte. */
function describeMismatch(what, actual, expected) {
  if (typeof actual !== 'string' || typeof expected !== 'string') {
    return `${what}: expected ${JSON.stringify(expected)?.slice(0, 300)}, got ${JSON.stringify(actual)?.slice(0, 300)}`;
  }
  let at = 0;
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at++;
  const from = Math.max(0, at - 40);
  return (
    `${what}: strings part at index ${at} (lengths ${actual.length} and ${expected.length})\n` +
    `  expected …${JSON.stringify(expected.slice(from, at + 40))}\n` +
    `  actual   …${JSON.stringify(actual.slice(from, at + 40))}`
  );
}

function assertSame(what, actual, expected) {
  if (actual !== expected) throw new Error(describeMismatch(what, actual, expected));
}

/** JSON with sorted keys: deep equality for plain data. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function assertDeepEqual(what, actual, expected) {
  assertSame(what, canonical(actual), canonical(expected));
}

/** Runs `fn`, which must throw an error whose message is exactly `message`. */
function assertThrows(what, fn, message, errorClass) {
  let thrown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  if (thrown === undefined) throw new Error(`${what}: expected the error ${JSON.stringify(message)}, but nothing was thrown`);
  if (errorClass && !(thrown instanceof errorClass)) throw new Error(`${what}: expected a ${errorClass.name}, got ${thrown}`);
  assertSame(`${what} (error message)`, thrown.message, message);
}

/** Exact JSON equality, key order included: a reading is the component's JSON, parsed. */
function assertSameJson(what, actual, expected) {
  assertSame(what, JSON.stringify(actual), JSON.stringify(expected));
}

// Two errors are equal when they say the same thing: their JSON forms match.
function assertSaysTheSame(api, what, actual, expected) {
  if (actual === null || expected === null) {
    assertSame(what, actual, expected);
    return;
  }
  assertSame(what, api.render(actual, { format: 'json' }), api.render(expected, { format: 'json' }));
}

function withoutCode(spec) {
  const { code, ...options } = spec;
  return { code, options };
}

/** The reading's part of one kind (`error` of a tool error, `validation` of a validation error), else null. */
function partOf(reading, kind, part) {
  return reading?.kind === kind ? reading[part] : null;
}

const KINDS = {
  render(api, c) {
    // A `specText` is the spec's raw text, for values no JSON reader takes whole (100,000 levels of nesting).
    const rendered = (options) => ('specText' in c ? api.renderJson(c.specText, options) : api.render(c.spec, options));
    for (const [format, expected] of Object.entries(c.expected)) {
      assertSame(`render ${format}`, rendered({ format }), expected);
      const parsed = partOf(api.parseEnvelope(expected), 'tool_error', 'error');
      if (c.parsed?.[format] === undefined && 'specText' in c) {
        assertSame(`parse ${format}`, api.render(parsed, { format: 'json' }), rendered({ format: 'json' }));
      } else {
        assertSaysTheSame(api, `parse ${format}`, parsed, c.parsed?.[format] ?? c.spec);
      }
      // A lossless form reads back to a faithful spec that renders the same bytes.
      if (c.parsed?.[format] === undefined) {
        assertSame(`render ${format} of the parsed error`, api.render(parsed, { format }), expected);
      }
    }
    for (const [format, expected] of Object.entries(c.result ?? {})) {
      assertSame(`result ${format}`, api.callToolResultJson(c.spec, { format }), expected);
      const { code, options } = withoutCode(c.spec);
      assertDeepEqual(`toolError ${format}`, api.toolError(code, { ...options, format }), JSON.parse(expected));
    }
  },
  'spec-error'(api, c) {
    if ('specText' in c) {
      assertThrows('renderJson', () => api.renderJson(c.specText), c.error, TypeError);
    } else {
      assertThrows('render', () => api.render(c.spec), c.error, TypeError);
      assertThrows('callToolResultJson', () => api.callToolResultJson(c.spec), c.error, TypeError);
    }
  },
  parse(api, c) {
    if ('malformed' in c) {
      assertThrows('parseEnvelope', () => api.parseEnvelope(c.input), c.malformed, SyntaxError);
    } else {
      assertSaysTheSame(api, 'parseEnvelope(...).error', partOf(api.parseEnvelope(c.input), 'tool_error', 'error'), c.parsed);
    }
  },
  'protocol-error'(api, c) {
    const { kind, message, data } = c.protocolError;
    assertSame('protocolErrorJson', api.protocolErrorJson(kind, message, data), c.expected);
    assertDeepEqual('protocolError', api.protocolError(kind, message, data), JSON.parse(c.expected));
  },
  validation(api, c) {
    // A string is the spec's raw JSON text (integers beyond 2^53, deep nesting): passed as is.
    const raw = typeof c.validation === 'string';
    const specText = raw ? c.validation : JSON.stringify(c.validation);
    if (c.kind === 'validation-error') {
      assertThrows('renderValidationJson', () => api.renderValidationJson(specText), c.error, TypeError);
      assertThrows('validationResultJson', () => api.validationResultJson(specText), c.error, TypeError);
      return;
    }
    assertSame('renderValidationJson', api.renderValidationJson(specText), c.expected);
    if ('result' in c) assertSame('validationResultJson', api.validationResultJson(specText), c.result);
    const spec = raw ? {} : c.validation;
    if (!raw && 'issues' in spec !== 'jsonSchemaErrors' in spec) {
      // The same issues (or raw validator errors) through the idiomatic API give the same bytes.
      const found = spec.issues ?? spec.jsonSchemaErrors;
      const options = {
        input: spec.arguments,
        inputSchema: spec.inputSchema,
        deltas: spec.deltas,
        maxFields: spec.maxFields,
        maxDeltas: spec.maxDeltas,
        locale: spec.locale,
        localizeSteering: spec.localizeSteering,
      };
      assertSame('renderValidation', api.renderValidation(spec.action, found, options), c.expected);
      if ('result' in c) {
        assertDeepEqual('validationError', api.validationError(spec.action, found, options), JSON.parse(c.result));
      }
    }
    const parsed = partOf(api.parseEnvelope(c.expected), 'validation_error', 'validation');
    if (parsed === null) throw new Error('parseEnvelope did not read the rendered <validation_error> back');
    if ('parsed' in c) assertDeepEqual('parseEnvelope(...).validation', parsed, c.parsed);
  },
  'validation-error'(api, c) {
    KINDS.validation(api, c);
  },
  'validation-parse'(api, c) {
    if ('malformed' in c) {
      assertThrows('parseEnvelope', () => api.parseEnvelope(c.parseValidation), c.malformed, SyntaxError);
    } else {
      assertDeepEqual(
        'parseEnvelope(...).validation',
        partOf(api.parseEnvelope(c.parseValidation), 'validation_error', 'validation'),
        c.parsed,
      );
    }
  },
  read(api, c) {
    if ('malformed' in c) {
      assertThrows('parseEnvelope', () => api.parseEnvelope(c.read), c.malformed, SyntaxError);
    } else {
      assertSameJson('parseEnvelope', api.parseEnvelope(c.read), c.reading.kind === 'none' ? null : c.reading);
    }
  },
  'error-of-result'(api, c) {
    let thrown;
    try {
      const returned = api.throwIfError(c.errorOfResult);
      if (returned !== c.errorOfResult) throw new Error('throwIfError did not return the result it was given');
    } catch (error) {
      thrown = error;
    }
    if (c.outcome === null) {
      if (thrown !== undefined) throw new Error(`throwIfError threw for a result that is not an error: ${thrown}`);
      return;
    }
    if (!(thrown instanceof api.EnvelopeError)) throw new Error(`throwIfError threw no EnvelopeError: ${thrown}`);
    const { code, message, reading, malformed } = thrown;
    assertSameJson('the EnvelopeError', { code, message, reading, ...('malformed' in thrown ? { malformed } : {}) }, c.outcome);
  },
  call(api, c) {
    const exported = CALLS[c.call];
    if (exported === undefined) throw new Error(`a call of an export this runner does not know: ${c.call}`);
    // The JSON-text function gives the export's own text; the idiomatic one takes the input as a native value.
    const { json, native } = exported(api);
    const inputText = JSON.stringify(c.input);
    if ('refused' in c) {
      assertThrows(`${c.call} (JSON text)`, () => json(inputText), c.refused, TypeError);
      return;
    }
    const expected = typeof c.output === 'string' ? c.output : JSON.stringify(c.output);
    assertSame(`${c.call} (JSON text)`, json(inputText), expected);
    // A string output is exact text: a native function giving an object is compared as its JSON text.
    const got = native(c.input);
    if (typeof c.output === 'string' && typeof got !== 'string') assertSame(`${c.call} (native)`, JSON.stringify(got), c.output);
    else assertSameJson(`${c.call} (native)`, got, c.output);
  },
  ledger(api, c) {
    const ledger = new api.Ledger(c.ledger.stopAfter);
    try {
      c.steps.forEach((step, index) => {
        if (step.success) {
          ledger.success(step.tool);
        } else if ('observe' in step) {
          const replaced = ledger.observe(step.tool, step.observe, { arguments: step.arguments });
          assertSameJson(`step ${index + 1}: observe of ${step.tool}`, replaced ?? null, step.replaced);
        } else {
          const options = { arguments: step.arguments, format: step.format };
          assertSameJson(`step ${index + 1}: failure of ${step.tool}`, ledger.failure(step.tool, step.failure, options), step.result);
        }
      });
    } finally {
      ledger.dispose();
    }
  },
  idempotency(api, c) {
    const store = new api.Idempotency(c.idempotency);
    try {
      c.steps.forEach((step, index) => {
        const what = `step ${index + 1}: ${'begin' in step ? 'begin' : 'finish'} of ${step.tool} ${JSON.stringify(step.key).slice(0, 40)}`;
        if ('begin' in step) {
          assertSameJson(what, store.begin(step.tool, step.key, step.begin, { now: step.nowMs, format: step.format }), step.answer);
        } else if ('refused' in step) {
          assertThrows(
            what,
            () => store.finish(step.tool, step.key, step.finish ?? undefined, { now: step.nowMs }),
            step.refused,
            TypeError,
          );
        } else {
          assertSame(what, store.finish(step.tool, step.key, step.finish ?? undefined, { now: step.nowMs }), step.finished);
        }
      });
    } finally {
      store.dispose();
    }
  },
};

/**
 * Each JSON-in export, by its WIT name: the package's function taking JSON
 * text and the one taking native values (the vector's input, as a value).
 */
const CALLS = {
  'code-defaults': (api) => ({ json: api.codeDefaultsJson, native: (input) => api.codeDefaults(input.code, { locale: input.locale }) }),
  limits: (api) => ({ json: api.limitsInForceJson, native: api.limitsInForce }),
  'exception-result': (api) => ({ json: api.exceptionResultJson, native: api.exceptionResult }),
  'upstream-error': (api) => ({ json: api.upstreamErrorJson, native: api.upstreamError }),
  'access-error': (api) => ({ json: api.accessErrorJson, native: api.accessError }),
  'empty-result': (api) => ({ json: api.emptyResultJson, native: api.emptyResult }),
  backoff: (api) => ({ json: api.backoffJson, native: api.backoff }),
  decide: (api) => ({
    json: api.decideJson,
    // The idiomatic call takes the result and { tool }; a request it cannot say so goes as JSON.
    native: (input) =>
      'result' in input && Object.keys(input).every((k) => k === 'result' || k === 'tool')
        ? api.decide(input.result, { tool: input.tool })
        : JSON.parse(api.decideJson(JSON.stringify(input))),
  }),
  'unknown-tool': (api) => ({ json: api.unknownToolJson, native: api.unknownTool }),
  'user-error': (api) => ({ json: api.userErrorJson, native: api.userError }),
  'handler-result': (api) => ({ json: api.handlerResultJson, native: (input) => JSON.parse(api.handlerResultJson(JSON.stringify(input))) }),
  // Takes nothing: the vector's input is null.
  'idempotency-key-argument': (api) => ({ json: () => api.idempotencyKeyArgument(), native: () => api.idempotencyKeyArgument() }),
  'contract-lock': (api) => ({ json: api.contractLockJson, native: api.contractLock }),
  'contract-diff': (api) => ({ json: api.contractDiffJson, native: (input) => api.contractDiff(input.lock, input.tools) }),
  'render-partial': (api) => ({ json: api.renderPartialJson, native: api.renderPartial }),
  'partial-result': (api) => ({ json: api.partialResultJson, native: api.partialResult }),
  'partial-limits': (api) => ({ json: api.partialLimitsInForceJson, native: api.partialLimitsInForce }),
  'ledger-key': (api) => ({ json: api.ledgerKeyJson, native: (input) => api.ledgerStoreKey(input.scope, input.tool) }),
  'ledger-failure': (api) => ({ json: api.ledgerFailureJson, native: (input) => JSON.parse(api.ledgerFailureJson(JSON.stringify(input))) }),
  'ledger-observe': (api) => ({ json: api.ledgerObserveJson, native: (input) => JSON.parse(api.ledgerObserveJson(JSON.stringify(input))) }),
  'idempotency-key': (api) => ({ json: api.idempotencyKeyJson, native: (input) => api.idempotencyStoreKey(input.tool, input.key) }),
  'idempotency-begin': (api) => ({
    json: api.idempotencyBeginJson,
    native: (input) => JSON.parse(api.idempotencyBeginJson(JSON.stringify(input))),
  }),
  'idempotency-finish': (api) => ({
    json: api.idempotencyFinishJson,
    native: (input) => JSON.parse(api.idempotencyFinishJson(JSON.stringify(input))),
  }),
  'answer-for-revision': (api) => ({
    json: api.answerForRevisionJson,
    native: (input) => api.answerForRevision(input.revision, input.answer),
  }),
  'host-step': (api) => ({ json: api.hostStepJson, native: (input) => api.hostStep(input) }),
  'span-attributes': (api) => ({ json: api.spanAttributesJson, native: (input) => api.spanAttributes(input) }),
  'after-trap': (api) => ({ json: api.afterTrapJson, native: (input) => JSON.parse(api.afterTrapJson(JSON.stringify(input))) }),
};

/**
 * The WIT interface (wit/*.wit) of each export a call case names;
 * test/vectors.test.mjs holds this table to the WIT files.
 */
export const INTERFACE_OF_CALL = {
  'code-defaults': 'envelope',
  limits: 'envelope',
  'render-partial': 'envelope',
  'partial-result': 'envelope',
  'partial-limits': 'envelope',
  'after-trap': 'envelope',
  'exception-result': 'server',
  'upstream-error': 'server',
  'access-error': 'server',
  'empty-result': 'server',
  'unknown-tool': 'server',
  'user-error': 'server',
  'handler-result': 'server',
  'idempotency-key-argument': 'server',
  'answer-for-revision': 'server',
  backoff: 'server',
  'ledger-key': 'server',
  'ledger-failure': 'server',
  'ledger-observe': 'server',
  'idempotency-key': 'server',
  'idempotency-begin': 'server',
  'idempotency-finish': 'server',
  decide: 'agent',
  'host-step': 'agent',
  'span-attributes': 'agent',
  'contract-lock': 'contract',
  'contract-diff': 'contract',
};

/** The interface of every other kind's exports: rendering and reading are `envelope`'s, the stores' steps `server`'s. */
const INTERFACE_OF_KIND = {
  render: 'envelope',
  'spec-error': 'envelope',
  parse: 'envelope',
  'protocol-error': 'envelope',
  validation: 'envelope',
  'validation-error': 'envelope',
  'validation-parse': 'envelope',
  read: 'envelope',
  'error-of-result': 'envelope',
  ledger: 'server',
  idempotency: 'server',
};

/** A case's kind (vectors/README.md): a call case names its WIT call, every other case its `kind`. */
function kindOf(c) {
  const kind = 'call' in c ? 'call' : c.kind;
  if (!(kind in KINDS)) throw new Error(`a case of a kind this runner does not know: ${kind}`);
  return kind;
}

/** The WIT interface whose exports a case calls: `envelope` cases run on both components, the others on the full one. */
function interfaceOf(c) {
  const found = 'call' in c ? INTERFACE_OF_CALL[c.call] : INTERFACE_OF_KIND[c.kind];
  if (found === undefined) throw new Error(`a case whose interface this runner does not know: ${c.call ?? c.kind}`);
  return found;
}

/**
 * Every case of the vector files, in file-name order, as `{ name, wit, run(api) }`
 * (`wit`: the interface of the exports it calls); `files` is
 * `[{ name: 'seed-examples.json', groups: [...] }, ...]`.
 */
export function vectorCases(files) {
  const sorted = [...files].filter((file) => file.name !== 'schema.json').sort((a, b) => (a.name < b.name ? -1 : 1));
  const cases = [];
  for (const file of sorted) {
    const stem = file.name.replace(/\.json$/, '');
    for (const group of file.groups) {
      for (const raw of group.cases) {
        const c = expand(raw);
        cases.push({
          name: `${stem} / ${group.description} / ${raw.description}`,
          wit: interfaceOf(c),
          run: (api) => KINDS[kindOf(c)](api, c),
        });
      }
    }
  }
  return cases;
}

/**
 * The runs a runner makes, each `{ name, run(api) }`: every case as the
 * package routes it (the envelope component for `envelope`'s exports, the
 * full one for the rest); then `useFull(api)`, which hands the package the
 * full core module (`useCoreModule`), so the full component serves the
 * envelope functions too; then the `envelope` cases again, on it.
 */
export function componentRuns(cases, useFull) {
  return [
    ...cases.map(({ name, run }) => ({ name, run })),
    { name: "the full component's core module, handed over, serves the envelope functions", run: useFull },
    ...cases.filter((c) => c.wit === 'envelope').map(({ name, run }) => ({ name: `on the full component / ${name}`, run })),
  ];
}
