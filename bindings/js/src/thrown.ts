// What a thrown value is, read from its structure and never from its text
// (docs/js-integrations.md, "What a throw becomes"): libraries word their
// errors for developers and put URLs, paths and credentials in them, but the
// fields they set beside the text say the kind. Each row below names the
// library whose structure it reads; the core picks the code and words the
// envelope. Every read is guarded: a value whose getters or Proxy traps throw
// says nothing, and stays an exception.

/** A thrown value's kind as the core's `handler-result` takes it under `known` (the exception's text added by the caller). */
export type Known =
  | { errno: string; path?: string; dest?: string }
  | { status: number; retryAfter?: string; url?: string }
  | { timeout: true; url?: string };

/** `value[key]`, or undefined for null and undefined and where reading it throws (a getter, a Proxy's trap). */
function at(value: unknown, key: string): unknown {
  try {
    return value == null ? undefined : (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const nameOf = (e: unknown) => text(at(e, 'name'));
/** A string, or a `URL`'s href (got keeps `options.url` as a URL). */
const href = (value: unknown) => text(value) ?? text(at(value, 'href'));
/** A POSIX error name as Node spells it. Any such name goes to the core, which knows which ones it answers. */
const ERRNO = /^E[A-Z0-9_]+$/;
const errnoOf = (e: unknown) => {
  const code = at(e, 'code');
  return typeof code === 'string' && ERRNO.test(code) ? code : undefined;
};
/** A client's error that copies the system error's code onto itself (axios, got), as that errno. */
const byCode = (e: unknown): Known | undefined => {
  const errno = errnoOf(e);
  return errno === undefined ? undefined : { errno };
};

/**
 * The URL a client's error says it requested, which the core only compares
 * with the call's arguments: axios `config.url`, got `options.url`, ky's and
 * Octokit's `request.url`, a fetch Response's `url`.
 */
function urlOf(e: unknown): string | undefined {
  return (
    href(at(at(e, 'config'), 'url')) ??
    href(at(at(e, 'options'), 'url')) ??
    href(at(at(e, 'request'), 'url')) ??
    href(at(at(e, 'response'), 'url'))
  );
}

/** A status the core can read (it decides what each one becomes), with the Retry-After header's text. */
function status(code: unknown, headers: unknown, url: string | undefined): Known | undefined {
  if (!Number.isInteger(code) || (code as number) < 100 || (code as number) > 999) return undefined;
  const fetchHeaders = typeof Headers === 'function' && headers instanceof Headers;
  // A fetch Headers is read through `get`; got's, Octokit's and axios's keep the lowercase name as a key.
  const retryAfter = text(fetchHeaders ? (headers as Headers).get('retry-after') : at(headers, 'retry-after'));
  return { status: code as number, retryAfter, url };
}

/** Node's system error (fs, net, dns, and pg and others pass them on as they are): its code, and the syscall or errno Node sets beside it. */
function systemError(e: unknown): Known | undefined {
  const errno = errnoOf(e);
  if (errno === undefined || (typeof at(e, 'syscall') !== 'string' && typeof at(e, 'errno') !== 'number')) return undefined;
  return { errno, path: text(at(e, 'path')), dest: text(at(e, 'dest')) };
}

/** undici's own codes for what a system error would otherwise say. */
const UNDICI: Readonly<Record<string, Known>> = {
  UND_ERR_CONNECT_TIMEOUT: { timeout: true },
  UND_ERR_HEADERS_TIMEOUT: { timeout: true },
  UND_ERR_BODY_TIMEOUT: { timeout: true },
  UND_ERR_SOCKET: { errno: 'ECONNRESET' },
};

/**
 * What a failure's cause says, its causes followed a few levels: a system
 * error, undici's code, or, when several addresses were tried, the first
 * system error among an AggregateError's `errors`.
 */
function causeOf(e: unknown, depth = 0): Known | undefined {
  const cause = at(e, 'cause');
  if (cause === undefined || depth > 3) return undefined;
  const code = at(cause, 'code');
  const errors = at(cause, 'errors');
  return (
    systemError(cause) ??
    (typeof code === 'string' && Object.hasOwn(UNDICI, code) ? UNDICI[code] : undefined) ??
    (Array.isArray(errors) ? errors.map(systemError).find((known) => known !== undefined) : undefined) ??
    causeOf(cause, depth + 1)
  );
}

/** axios: the response's status; without a response, its code (ECONNABORTED is axios's own timeout). */
function axios(e: unknown): Known | undefined {
  const response = at(e, 'response');
  if (response != null) return status(at(response, 'status'), at(response, 'headers'), urlOf(e));
  const code = errnoOf(e);
  return code === 'ECONNABORTED' || code === 'ETIMEDOUT' ? { timeout: true, url: urlOf(e) } : byCode(e);
}

/** The structures read, in order; the first that answers decides. */
const ROWS: readonly (readonly [library: string, read: (e: unknown) => Known | undefined])[] = [
  ['Node: a system error (fs, net, dns; pg rethrows them)', systemError],
  ['fetch (undici): TypeError "fetch failed", the reason in its cause', (e) => (nameOf(e) === 'TypeError' ? causeOf(e) : undefined)],
  ['axios: isAxiosError', (e) => (at(e, 'isAxiosError') === true ? axios(e) : undefined)],
  [
    'got: HTTPError, its response an IncomingMessage',
    (e) => {
      const response = at(e, 'response');
      return nameOf(e) === 'HTTPError' ? status(at(response, 'statusCode'), at(response, 'headers'), urlOf(e)) : undefined;
    },
  ],
  ['got: RequestError, the system error its code', (e) => (nameOf(e) === 'RequestError' ? byCode(e) : undefined)],
  [
    // Octokit reports a request that got no response as status 500: its cause says more.
    'Octokit: HttpError',
    (e) => {
      if (nameOf(e) !== 'HttpError') return undefined;
      const response = at(e, 'response');
      return response == null ? causeOf(e) : status(at(e, 'status'), at(response, 'headers'), urlOf(e));
    },
  ],
  [
    'ky, and any error holding a fetch Response',
    (e) => {
      const response = at(e, 'response');
      if (typeof Response !== 'function' || !(response instanceof Response)) return undefined;
      return status(response.status, response.headers, urlOf(e));
    },
  ],
  [
    'a timeout: TimeoutError (AbortSignal.timeout, ky, got), AbortError',
    (e) => (nameOf(e) === 'TimeoutError' || nameOf(e) === 'AbortError' ? { timeout: true, url: urlOf(e) } : undefined),
  ],
];

/**
 * Whether the author wrote `e` for the model: an instance of exactly `Error`
 * (from any realm: its constructor named `Error`) with no `code` of its own.
 * Libraries throw their own subclasses (TypeError, SyntaxError, AxiosError)
 * or tag a plain Error with a code (mysql, sqlite3): their text is theirs.
 */
function authorsWords(e: unknown): string | undefined {
  // A real error object, whatever its realm (a Proxy is not one).
  if (Object.prototype.toString.call(e) !== '[object Error]' || Object.hasOwn(e as object, 'code')) return undefined;
  const proto = Object.getPrototypeOf(e);
  const plain =
    proto === Error.prototype ||
    (proto !== null && Object.hasOwn(proto, 'constructor') && at(at(proto, 'constructor'), 'name') === 'Error');
  return plain ? text(at(e, 'message')) : undefined;
}

/** A JSON-RPC error as the core's `handler-result` takes it under `rpcError`. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * The SDKs' classes of JSON-RPC errors a handler raises for the client: 1.x
 * `McpError` (its message prefixed `MCP error <code>: `) and 2.x
 * `ProtocolError`. Matched by the constructor's name along the prototype
 * chain, not by `name` (1.0's McpError leaves it `Error`), so a subclass and
 * a copy of the SDK other than the server's count too.
 */
const RPC_ERROR_CLASSES: ReadonlySet<string> = new Set(['McpError', 'ProtocolError']);

/** A thrown SDK JSON-RPC error (an Error with an integer `code`, of a class above): its code, message and data. */
function rpcError(e: unknown): RpcError | undefined {
  const code = at(e, 'code');
  if (Object.prototype.toString.call(e) !== '[object Error]' || !Number.isSafeInteger(code)) return undefined;
  // A few levels are enough for the SDKs' subclasses (UrlElicitationRequiredError, ResourceNotFoundError).
  let proto: unknown = Object.getPrototypeOf(e);
  for (let depth = 0; depth < 8 && proto !== null && proto !== Error.prototype; depth++) {
    const name = Object.hasOwn(proto as object, 'constructor') ? at(at(proto, 'constructor'), 'name') : undefined;
    if (typeof name === 'string' && RPC_ERROR_CLASSES.has(name)) {
      const data = at(e, 'data');
      return { code: code as number, message: text(at(e, 'message')) ?? '', ...(data === undefined ? {} : { data }) };
    }
    proto = Object.getPrototypeOf(proto);
  }
  return undefined;
}

/**
 * What `handler-result` takes for a thrown value its structure tells: a
 * `known` kind (with the exception's text for the log line), a JSON-RPC
 * error raised with the SDK's own class (`rpcError`, which the core words by
 * its code), the author's own `message`, or undefined for any other
 * exception.
 */
export function thrownOutcome(
  thrown: unknown,
  exception: () => string,
): { known: Known & { exception: string } } | { rpcError: RpcError } | { message: string } | undefined {
  try {
    const raised = rpcError(thrown);
    if (raised !== undefined) return { rpcError: raised };
    for (const [, read] of ROWS) {
      const known = read(thrown);
      if (known !== undefined) return { known: { ...known, exception: exception() } };
    }
    const message = authorsWords(thrown);
    return message === undefined ? undefined : { message };
  } catch {
    // A value whose structure cannot be read (a Proxy whose traps throw) is an exception like any other.
    return undefined;
  }
}
