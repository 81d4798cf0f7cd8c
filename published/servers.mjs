// The published servers the harness runs, how each is started on a fresh
// folder of its own, and its plan: the calls, each with what the plain server
// answers (pinned exactly) and what the wrapped one must answer.
//
// A call's `kind` says which rule holds it:
//   success    the wrapped result must be the plain one, byte for byte as JSON
//              (after `mask`, for the parts that change with the clock);
//   answered   a failure the server itself answers as a successful result (its
//              text says what failed): the wrapped result must be the plain one;
//   failure    a failure the tool reports: wrapped, a <tool_error> with `code`
//              (and, where the call says `mentions`, those texts: what the
//              model sent that failed, such as the missing file's name);
//   arguments  arguments that fail the tool's input schema: wrapped, a
//              <validation_error> with a <field name="FIELD"> line;
//   unknown    a tool the server does not list: wrapped, JSON-RPC error -32602.
// `plain` is the plain server's answer, exact: `{ text }` for a successful
// result, `{ isError: true, text }` for an error result, `{ error: { code,
// message } }` for a JSON-RPC error. `${dir}` in a text is the call's folder.
//
// `wrap` is how the wrapped copy is made (published/wrap.mjs): `one-line`, the
// README's line for McpServer, MCPServer or FastMCP inserted (for a Python
// package, into the module that makes the server; `module` is the package
// copied, `run` what `python -m` runs, `script` the console script run
// instead); `low-level`, the line for the SDK's low-level Server (wrap.mjs
// fails when a server is built on the other kind). A Python server runs in
// published/.venv, or in the venv `venv` names. Each is started in (and on) a
// folder made fresh for each run, at the same path for the plain and the
// wrapped run, so texts naming a path agree.
//
// `offline` runs both sides in a network namespace of their own, with no
// network at all (`unshare --net`), so an upstream is unreachable the same way
// on every machine. `secrets` are texts no answer of either side may hold (a
// token the server is given). A call's `plainStackTrace` says the plain server
// sends a stack trace there (pinned with its frames masked): only the wrapped
// side is then held to sending none.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** An ISO date-time with its offset, and its weekday: what the time tools read off the clock (UTC and Tokyo keep no DST). */
const CLOCK = [
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[+-]\d{2}:\d{2}|Z)/g, '<date-time>'],
  [/("day_of_week": ?)"[A-Za-z]+"/g, '$1"<weekday>"'],
];

/** The fake token server-github is given, in a GitHub token's shape, which no answer may hold. */
const GITHUB_TOKEN = 'ghp_mcpEnvelopeHarnessFake0123456789abcd';

/** A JavaScript stack's frames, which change with Node's version and the install's folder. */
const STACK_FRAMES = [[/(\n {4}at [^\n]*)+/g, '\n    at <frames>']];

/** Makes a git repository whose commit has fixed names and dates, so its hash is the same on every run. */
function gitRepository(dir) {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Ada',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_AUTHOR_DATE: '2026-01-02T03:04:05Z',
    GIT_COMMITTER_NAME: 'Ada',
    GIT_COMMITTER_EMAIL: 'ada@example.com',
    GIT_COMMITTER_DATE: '2026-01-02T03:04:05Z',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const git = (...args) => execFileSync('git', args, { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  git('init', '--quiet', '--initial-branch=main');
  writeFileSync(join(dir, 'invoice.txt'), 'inv_1: 120.00 EUR, paid\n');
  mkdirSync(join(dir, 'notes'));
  writeFileSync(join(dir, 'notes/todo.txt'), 'send the invoice\n');
  git('add', '.');
  git('commit', '--quiet', '-m', 'The first invoice');
}

export const SERVERS = [
  {
    name: 'filesystem',
    language: 'js',
    package: '@modelcontextprotocol/server-filesystem',
    version: '2026.8.31',
    api: 'TypeScript SDK McpServer',
    wrap: 'one-line',
    entry: 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
    setup(dir) {
      writeFileSync(join(dir, 'invoice.txt'), 'inv_1: 120.00 EUR, paid\n');
      mkdirSync(join(dir, 'reports'));
      return { args: [dir] };
    },
    calls: [
      { name: 'read the one file', kind: 'success', tool: 'read_text_file', arguments: { path: 'invoice.txt' }, plain: { text: 'inv_1: 120.00 EUR, paid\n' } },
      { name: 'list the folder', kind: 'success', tool: 'list_directory', arguments: { path: '.' }, plain: { text: '[FILE] invoice.txt\n[DIR] reports' } },
      { name: 'a file outside the allowed folders', kind: 'failure', code: 'TOOL_ERROR', tool: 'read_text_file', arguments: { path: '/etc/passwd' }, plain: { isError: true, text: 'Access denied - path outside allowed directories: /etc/passwd not in ${dir}' } },
      { name: 'a missing file', kind: 'failure', code: 'NOT_FOUND', mentions: ['missing.txt'], tool: 'read_text_file', arguments: { path: 'missing.txt' }, plain: { isError: true, text: 'ENOENT: no such file or directory, open \'${dir}/missing.txt\'' } },
      { name: 'a folder where a file is needed', kind: 'failure', code: 'VALIDATION_ERROR', tool: 'read_text_file', arguments: { path: 'reports' }, plain: { isError: true, text: 'EISDIR: illegal operation on a directory, read' } },
      { name: 'both head and tail', kind: 'failure', code: 'TOOL_ERROR', tool: 'read_text_file', arguments: { path: 'invoice.txt', head: 1, tail: 1 }, plain: { isError: true, text: 'Cannot specify both head and tail parameters simultaneously' } },
      { name: 'a folder over a file', kind: 'failure', code: 'CONFLICT', mentions: ['invoice.txt'], tool: 'create_directory', arguments: { path: 'invoice.txt' }, plain: { isError: true, text: 'EEXIST: file already exists, mkdir \'${dir}/invoice.txt\'' } },
      { name: 'a move onto a file', kind: 'failure', code: 'TOOL_ERROR', tool: 'move_file', arguments: { source: 'invoice.txt', destination: 'invoice.txt' }, plain: { isError: true, text: 'Destination already exists: ${dir}/invoice.txt' } },
      { name: 'a write into a missing folder', kind: 'failure', code: 'NOT_FOUND', mentions: ['nowhere/at/all.txt'], tool: 'write_file', arguments: { path: 'nowhere/at/all.txt', content: 'x' }, plain: { isError: true, text: 'ENOENT: no such file or directory, open \'${dir}/nowhere/at/all.txt\'' } },
      { name: 'an edit that matches nothing', kind: 'failure', code: 'TOOL_ERROR', tool: 'edit_file', arguments: { path: 'invoice.txt', edits: [{ oldText: 'inv_2', newText: 'inv_3' }] }, plain: { isError: true, text: 'Could not find exact match for edit:\ninv_2' } },
      { name: 'a path of the wrong type', kind: 'arguments', field: 'path', tool: 'read_text_file', arguments: { path: 42 }, plain: { isError: true, text: 'MCP error -32602: Input validation error: Invalid arguments for tool read_text_file: Invalid input: expected string, received number at path' } },
      { name: 'no path', kind: 'arguments', field: 'path', tool: 'read_text_file', arguments: {}, plain: { isError: true, text: 'MCP error -32602: Input validation error: Invalid arguments for tool read_text_file: Invalid input: expected string, received undefined at path' } },
      { name: 'an unknown tool', kind: 'unknown', tool: 'delete_everything', arguments: { path: '.' }, plain: { isError: true, text: 'MCP error -32602: Tool delete_everything not found' } },
    ],
  },
  {
    name: 'memory',
    language: 'js',
    package: '@modelcontextprotocol/server-memory',
    version: '2026.8.31',
    api: 'TypeScript SDK McpServer',
    wrap: 'one-line',
    entry: 'node_modules/@modelcontextprotocol/server-memory/dist/index.js',
    setup(dir) {
      return { args: [], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } };
    },
    calls: [
      { name: 'create an entity', kind: 'success', tool: 'create_entities', arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] }, plain: { text: '[\n  {\n    "name": "Ada",\n    "entityType": "person",\n    "observations": [\n      "wrote the first program"\n    ]\n  }\n]' } },
      { name: 'open it', kind: 'success', tool: 'open_nodes', arguments: { names: ['Ada'] }, plain: { text: '{\n  "entities": [\n    {\n      "name": "Ada",\n      "entityType": "person",\n      "observations": [\n        "wrote the first program"\n      ]\n    }\n  ],\n  "relations": []\n}' } },
      { name: 'observe an entity that does not exist', kind: 'failure', code: 'TOOL_ERROR', mentions: ['Nobody'], tool: 'add_observations', arguments: { observations: [{ entityName: 'Nobody', contents: ['was here'] }] }, plain: { isError: true, text: 'Entity with name Nobody not found' } },
      { name: 'a query of the wrong type', kind: 'arguments', field: 'query', tool: 'search_nodes', arguments: { query: 42 }, plain: { isError: true, text: 'MCP error -32602: Input validation error: Invalid arguments for tool search_nodes: Invalid input: expected string, received number at query' } },
      { name: 'no entities', kind: 'arguments', field: 'entities', tool: 'create_entities', arguments: {}, plain: { isError: true, text: 'MCP error -32602: Input validation error: Invalid arguments for tool create_entities: Invalid input: expected array, received undefined at entities' } },
      { name: 'relations that are not a list', kind: 'arguments', field: 'relations', tool: 'create_relations', arguments: { relations: 'Ada knows Bob' }, plain: { isError: true, text: 'MCP error -32602: Input validation error: Invalid arguments for tool create_relations: Invalid input: expected array, received string at relations' } },
      { name: 'an unknown tool', kind: 'unknown', tool: 'forget_everything', arguments: {}, plain: { isError: true, text: 'MCP error -32602: Tool forget_everything not found' } },
    ],
  },
  {
    name: 'github',
    language: 'js',
    package: '@modelcontextprotocol/server-github',
    version: '2025.4.8',
    api: 'TypeScript SDK 1.0.1 Server (low-level)',
    wrap: 'low-level',
    entry: 'node_modules/@modelcontextprotocol/server-github/dist/index.js',
    // Every tool asks api.github.com, whose address is written into the server: with no network, each
    // call fails the same way on every machine, and the token never leaves the process.
    offline: true,
    secrets: [GITHUB_TOKEN],
    setup() {
      return { args: [], env: { GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN } };
    },
    calls: [
      { name: 'a file from an unreachable GitHub', kind: 'failure', code: 'UPSTREAM_UNAVAILABLE', tool: 'get_file_contents', arguments: { owner: 'octocat', repo: 'hello-world', path: 'README' }, plain: { error: { code: -32603, message: 'fetch failed' } } },
      { name: 'a search of an unreachable GitHub', kind: 'failure', code: 'UPSTREAM_UNAVAILABLE', tool: 'search_repositories', arguments: { query: 'mcp' }, plain: { error: { code: -32603, message: 'fetch failed' } } },
      { name: 'an issue filed on an unreachable GitHub', kind: 'failure', code: 'TOOL_ERROR', mentions: ['Failed to create issue: fetch failed'], plainStackTrace: true, mask: STACK_FRAMES, tool: 'create_issue', arguments: { owner: 'octocat', repo: 'hello-world', title: 'Broken link' }, plain: { error: { code: -32603, message: 'Failed to create issue: fetch failed\nStack: TypeError: fetch failed\n    at <frames>' } } },
      { name: 'an owner of the wrong type', kind: 'arguments', field: 'owner', tool: 'get_file_contents', arguments: { owner: 42, repo: 'hello-world', path: 'README' }, plain: { error: { code: -32603, message: 'Invalid input: [{"code":"invalid_type","expected":"string","received":"number","path":["owner"],"message":"Expected string, received number"}]' } } },
      { name: 'no path', kind: 'arguments', field: 'path', tool: 'get_file_contents', arguments: { owner: 'octocat', repo: 'hello-world' }, plain: { error: { code: -32603, message: 'Invalid input: [{"code":"invalid_type","expected":"string","received":"undefined","path":["path"],"message":"Required"}]' } } },
      { name: 'a state not in the list', kind: 'arguments', field: 'state', tool: 'list_issues', arguments: { owner: 'octocat', repo: 'hello-world', state: 'stale' }, plain: { error: { code: -32603, message: 'Invalid input: [{"received":"stale","code":"invalid_enum_value","options":["open","closed","all"],"path":["state"],"message":"Invalid enum value. Expected \'open\' | \'closed\' | \'all\', received \'stale\'"}]' } } },
      { name: 'no arguments at all', kind: 'arguments', field: 'query', tool: 'search_repositories', plain: { error: { code: -32603, message: 'Arguments are required' } } },
      { name: 'an unknown tool', kind: 'unknown', tool: 'delete_repository', arguments: { owner: 'octocat', repo: 'hello-world' }, plain: { error: { code: -32603, message: 'Unknown tool: delete_repository' } } },
    ],
  },
  {
    name: 'time',
    language: 'python',
    package: 'mcp-server-time',
    version: '2026.10.19',
    module: 'mcp_server_time',
    api: 'Python SDK MCPServer',
    wrap: 'one-line',
    setup() {
      return { args: ['--local-timezone', 'UTC'] };
    },
    calls: [
      { name: 'the time in UTC', kind: 'success', mask: CLOCK, tool: 'get_current_time', arguments: { timezone: 'UTC' }, plain: { text: '{\n  "timezone": "UTC",\n  "datetime": "<date-time>",\n  "day_of_week": "<weekday>",\n  "is_dst": false\n}' } },
      { name: 'noon in Tokyo from UTC', kind: 'success', mask: CLOCK, tool: 'convert_time', arguments: { source_timezone: 'UTC', time: '12:00', target_timezone: 'Asia/Tokyo' }, plain: { text: '{\n  "source": {\n    "timezone": "UTC",\n    "datetime": "<date-time>",\n    "day_of_week": "<weekday>",\n    "is_dst": false\n  },\n  "target": {\n    "timezone": "Asia/Tokyo",\n    "datetime": "<date-time>",\n    "day_of_week": "<weekday>",\n    "is_dst": false\n  },\n  "time_difference": "+9.0h"\n}' } },
      { name: 'an invalid timezone', kind: 'failure', code: 'TOOL_ERROR', tool: 'get_current_time', arguments: { timezone: 'Mars/Olympus_Mons' }, plain: { isError: true, text: 'Error executing tool get_current_time: Invalid timezone: \'No time zone found with key Mars/Olympus_Mons\'' } },
      { name: 'an invalid time', kind: 'failure', code: 'TOOL_ERROR', tool: 'convert_time', arguments: { source_timezone: 'UTC', time: '25:99', target_timezone: 'Asia/Tokyo' }, plain: { isError: true, text: 'Error executing tool convert_time: Invalid time format. Expected HH:MM [24-hour format]' } },
      { name: 'an empty timezone', kind: 'failure', code: 'TOOL_ERROR', tool: 'get_current_time', arguments: { timezone: '' }, plain: { isError: true, text: 'Error executing tool get_current_time: Missing required argument: timezone' } },
      { name: 'a timezone of the wrong type', kind: 'arguments', field: 'timezone', tool: 'get_current_time', arguments: { timezone: 42 }, plain: { isError: true, text: 'Error executing tool get_current_time: 1 validation error for get_current_timeArguments\ntimezone\n  Input should be a valid string [type=string_type, input_value=42, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.14/v/string_type' } },
      { name: 'no time', kind: 'arguments', field: 'time', tool: 'convert_time', arguments: { source_timezone: 'UTC', target_timezone: 'Asia/Tokyo' }, plain: { isError: true, text: 'Error executing tool convert_time: 1 validation error for convert_timeArguments\ntime\n  Field required [type=missing, input_value={\'source_timezone\': \'UTC\'...timezone\': \'Asia/Tokyo\'}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.14/v/missing' } },
      { name: 'an unknown tool', kind: 'unknown', tool: 'set_time', arguments: {}, plain: { error: { code: -32602, message: 'Unknown tool: set_time' } } },
    ],
  },
  {
    name: 'git',
    language: 'python',
    package: 'mcp-server-git',
    version: '2026.10.19',
    module: 'mcp_server_git',
    api: 'Python SDK MCPServer',
    wrap: 'one-line',
    setup(dir) {
      const repo = join(dir, 'repo');
      mkdirSync(repo);
      gitRepository(repo);
      mkdirSync(join(dir, 'elsewhere'));
      return { args: ['--repository', repo] };
    },
    calls: [
      { name: 'the status', kind: 'success', tool: 'git_status', arguments: { repo_path: '${dir}/repo' }, plain: { text: 'Repository status:\nOn branch main\nnothing to commit, working tree clean' } },
      { name: 'the log', kind: 'success', tool: 'git_log', arguments: { repo_path: '${dir}/repo', max_count: 5 }, plain: { text: 'Commit history:\nCommit: 725f08939de4bbd3a0fc787fc872711dbcc25099\nAuthor: Ada\nDate: 2026-01-02 03:04:05+00:00\nMessage: The first invoice\n\n' } },
      { name: 'the commit', kind: 'success', tool: 'git_show', arguments: { repo_path: '${dir}/repo', revision: 'HEAD' }, plain: { text: 'commit 725f08939de4bbd3a0fc787fc872711dbcc25099\nAuthor: Ada <ada@example.com>\nDate:   2026-01-02 03:04:05 +0000\n\n    The first invoice\n\n--- /dev/null\n+++ b/invoice.txt\n@@ -0,0 +1 @@\n+inv_1: 120.00 EUR, paid\n\n--- /dev/null\n+++ b/notes/todo.txt\n@@ -0,0 +1 @@\n+send the invoice\n' } },
      { name: 'a folder that is not a repository', kind: 'failure', code: 'TOOL_ERROR', tool: 'git_status', arguments: { repo_path: '${dir}/repo/notes' }, plain: { isError: true, text: 'Error executing tool git_status: ${dir}/repo/notes' } },
      { name: 'a repository outside the allowed one', kind: 'failure', code: 'TOOL_ERROR', tool: 'git_status', arguments: { repo_path: '${dir}/elsewhere' }, plain: { isError: true, text: 'Error executing tool git_status: Repository path \'${dir}/elsewhere\' is outside the allowed repository \'${dir}/repo\'' } },
      { name: 'a missing ref', kind: 'failure', code: 'TOOL_ERROR', tool: 'git_diff', arguments: { repo_path: '${dir}/repo', target: 'no-such-branch' }, plain: { isError: true, text: 'Error executing tool git_diff: Ref \'no-such-branch\' did not resolve to an object' } },
      { name: 'a checkout of a missing branch', kind: 'failure', code: 'TOOL_ERROR', tool: 'git_checkout', arguments: { repo_path: '${dir}/repo', branch_name: 'no-such-branch' }, plain: { isError: true, text: 'Error executing tool git_checkout: Ref \'no-such-branch\' did not resolve to an object' } },
      { name: 'a revision that is a flag', kind: 'failure', code: 'TOOL_ERROR', tool: 'git_show', arguments: { repo_path: '${dir}/repo', revision: '--output=/tmp/x' }, plain: { isError: true, text: 'Error executing tool git_show: Invalid revision: \'--output=/tmp/x\' - cannot start with \'-\'' } },
      { name: 'a commit with nothing staged', kind: 'failure', code: 'TOOL_ERROR', tool: 'git_commit', arguments: { repo_path: '${dir}/repo', message: 'nothing' }, plain: { isError: true, text: 'Error executing tool git_commit: No changes staged for commit. Use git_add to stage changes first; git_status shows what is currently staged.' } },
      { name: 'a branch that exists', kind: 'failure', code: 'TOOL_ERROR', tool: 'git_create_branch', arguments: { repo_path: '${dir}/repo', branch_name: 'main' }, plain: { isError: true, text: 'Error executing tool git_create_branch: Cannot create branch \'main\': refs/heads/main already exists' } },
      { name: 'a count of the wrong type', kind: 'arguments', field: 'max_count', tool: 'git_log', arguments: { repo_path: '${dir}/repo', max_count: 'ten' }, plain: { isError: true, text: 'Error executing tool git_log: 1 validation error for logArguments\nmax_count\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value=\'ten\', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing' } },
      { name: 'no repository path', kind: 'arguments', field: 'repo_path', tool: 'git_status', arguments: {}, plain: { isError: true, text: 'Error executing tool git_status: 1 validation error for statusArguments\nrepo_path\n  Field required [type=missing, input_value={}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.14/v/missing' } },
      { name: 'no files to add', kind: 'arguments', field: 'files', tool: 'git_add', arguments: { repo_path: '${dir}/repo', files: [] }, plain: { isError: true, text: 'Error executing tool git_add: 1 validation error for addArguments\nfiles\n  List should have at least 1 item after validation, not 0 [type=too_short, input_value=[], input_type=list]\n    For further information visit https://errors.pydantic.dev/2.14/v/too_short' } },
      { name: 'an unknown tool', kind: 'unknown', tool: 'git_push', arguments: { repo_path: '${dir}/repo' }, plain: { error: { code: -32602, message: 'Unknown tool: git_push' } } },
    ],
  },
  {
    name: 'word',
    language: 'python',
    package: 'office-word-mcp-server',
    version: '1.1.11',
    module: 'word_document_server',
    run: 'word_document_server.main',
    api: 'FastMCP 4',
    wrap: 'one-line',
    setup(dir) {
      writeFileSync(join(dir, 'notes.docx'), 'not a Word document\n');
      // FastMCP asks PyPI for a newer version of itself when it starts, unless told not to: the run stays offline.
      return { args: [], env: { FASTMCP_CHECK_FOR_UPDATES: 'off' } };
    },
    calls: [
      { name: 'create a document', kind: 'success', tool: 'create_document', arguments: { filename: 'report.docx', title: 'Report' }, plain: { text: 'Document report.docx created successfully' } },
      { name: 'add a paragraph', kind: 'success', tool: 'add_paragraph', arguments: { filename: 'report.docx', text: 'inv_1: 120.00 EUR, paid' }, plain: { text: 'Paragraph added to report.docx' } },
      { name: 'read it back', kind: 'success', tool: 'get_document_text', arguments: { filename: 'report.docx' }, plain: { text: 'inv_1: 120.00 EUR, paid' } },
      { name: 'a missing document', kind: 'answered', tool: 'get_document_text', arguments: { filename: 'missing.docx' }, plain: { text: 'Document missing.docx does not exist' } },
      { name: 'a file that is not a document', kind: 'answered', tool: 'get_document_text', arguments: { filename: 'notes.docx' }, plain: { text: 'Failed to extract text: Package not found at \'notes.docx\'' } },
      { name: 'a style that does not exist', kind: 'answered', tool: 'add_paragraph', arguments: { filename: 'report.docx', text: 'x', style: 'No Such Style' }, plain: { text: 'Style \'No Such Style\' not found, paragraph added with default style to report.docx' } },
      { name: 'a filename of the wrong type', kind: 'arguments', field: 'filename', tool: 'get_document_text', arguments: { filename: 42 }, plain: { isError: true, text: '1 validation error for call[get_document_text]\nfilename\n  Input should be a valid string [type=string_type, input_value=42, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.14/v/string_type' } },
      { name: 'no filename', kind: 'arguments', field: 'filename', tool: 'get_document_text', arguments: {}, plain: { isError: true, text: '1 validation error for call[get_document_text]\nfilename\n  Missing required argument [type=missing_argument, input_value={}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.14/v/missing_argument' } },
      { name: 'an unknown tool', kind: 'unknown', tool: 'print_document', arguments: { filename: 'report.docx' }, plain: { isError: true, text: 'Unknown tool: \'print_document\'' } },
    ],
  },
  {
    name: 'sqlite',
    language: 'python',
    package: 'mcp-server-sqlite',
    version: '2025.4.25',
    module: 'mcp_server_sqlite',
    script: 'mcp-server-sqlite',
    venv: '.venv-mcp1',
    api: 'Python SDK 1.30.0 Server (low-level)',
    wrap: 'low-level',
    setup(dir) {
      return { args: ['--db-path', join(dir, 'invoices.db')] };
    },
    calls: [
      { name: 'create a table', kind: 'success', tool: 'create_table', arguments: { query: 'CREATE TABLE invoices (id TEXT PRIMARY KEY, amount REAL NOT NULL)' }, plain: { text: 'Table created successfully' } },
      { name: 'insert a row', kind: 'success', tool: 'write_query', arguments: { query: "INSERT INTO invoices VALUES ('inv_1', 120.0)" }, plain: { text: '[{\'affected_rows\': 1}]' } },
      { name: 'read it back', kind: 'success', tool: 'read_query', arguments: { query: 'SELECT id, amount FROM invoices' }, plain: { text: '[{\'id\': \'inv_1\', \'amount\': 120.0}]' } },
      { name: 'list the tables', kind: 'success', tool: 'list_tables', arguments: {}, plain: { text: '[{\'name\': \'invoices\'}]' } },
      { name: 'describe a missing table (an empty list)', kind: 'success', tool: 'describe_table', arguments: { table_name: 'payments' }, plain: { text: '[]' } },
      { name: 'SQL naming a missing table', kind: 'answered', tool: 'write_query', arguments: { query: "INSERT INTO payments VALUES ('pay_1')" }, plain: { text: 'Database error: no such table: payments' } },
      { name: 'a read that is not a SELECT', kind: 'answered', tool: 'read_query', arguments: { query: "DELETE FROM invoices" }, plain: { text: 'Error: Only SELECT queries are allowed for read_query' } },
      { name: 'no query', kind: 'arguments', field: 'query', tool: 'read_query', arguments: {}, plain: { isError: true, text: 'Input validation error: \'query\' is a required property' } },
      { name: 'a query of the wrong type', kind: 'arguments', field: 'query', tool: 'read_query', arguments: { query: 42 }, plain: { isError: true, text: 'Input validation error: 42 is not of type \'string\'' } },
      { name: 'an unknown tool', kind: 'unknown', tool: 'drop_database', arguments: {}, plain: { text: 'Error: Missing arguments' } },
    ],
  },
];
