//! Which MCP API a server started by a command is built on, told from its own
//! source without running anything: the command's entry file, the imports it
//! and its own package's files make, or the bytes of a native binary. Written
//! by hand because no crate resolves a Node or Python command to its entry
//! point; it reads a few files, and when it cannot tell it says so.

use std::collections::{HashSet, VecDeque};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The files read at most, following one server's own imports.
const MOST_FILES: usize = 64;
/// A source file larger than this is a bundle or data, not a server's entry.
const MOST_SOURCE_BYTES: u64 = 4 << 20;
/// A native binary larger than this is not scanned.
const MOST_BINARY_BYTES: u64 = 256 << 20;

/// An MCP API a server can be built on, each with the line that wraps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    TsMcpServer,
    TsLowLevel,
    TsFastMcp,
    PyMcpServer,
    PyFastMcp1,
    PyLowLevel,
    PyFastMcp,
    Rmcp,
}

impl Api {
    pub fn name(self) -> &'static str {
        match self {
            Api::TsMcpServer => "TypeScript SDK McpServer",
            Api::TsLowLevel => "TypeScript SDK low-level Server",
            Api::TsFastMcp => "FastMCP (TypeScript)",
            Api::PyMcpServer => "Python SDK MCPServer",
            Api::PyFastMcp1 => "Python SDK FastMCP (mcp 1.x)",
            Api::PyLowLevel => "Python SDK low-level Server",
            Api::PyFastMcp => "FastMCP (Python)",
            Api::Rmcp => "rmcp (Rust)",
        }
    }

    /// What the server's author imports the line from.
    pub fn module(self) -> &'static str {
        match self {
            Api::TsMcpServer | Api::TsLowLevel => "mcp-envelope/mcp",
            Api::TsFastMcp => "mcp-envelope/fastmcp",
            Api::PyMcpServer | Api::PyFastMcp1 => "mcp_envelope.mcp_server",
            Api::PyLowLevel => "mcp_envelope.lowlevel",
            Api::PyFastMcp => "mcp_envelope.fastmcp",
            Api::Rmcp => "mcp_envelope::rmcp, feature rmcp",
        }
    }

    /// The line the README gives for the API.
    pub fn one_line(self) -> &'static str {
        match self {
            Api::TsMcpServer | Api::TsLowLevel => "envelopeServer(server)",
            Api::TsFastMcp => "envelopeFastMCP(server)",
            Api::PyMcpServer => "EnvelopeMCPServer(...) in place of MCPServer(...)",
            Api::PyFastMcp1 => "EnvelopeMCPServer(...) in place of FastMCP(...)",
            Api::PyLowLevel => "server = envelope_server(Server(...))",
            Api::PyFastMcp => "FastMCP(..., middleware=[EnvelopeMiddleware()])",
            Api::Rmcp => "EnvelopeServer::new(handler)",
        }
    }

    /// Frameworks import the layers beneath them, so when a server's files
    /// import several, the highest tells what its author wrote on.
    fn rank(self) -> u8 {
        match self {
            Api::TsLowLevel | Api::PyLowLevel | Api::Rmcp => 0,
            Api::TsMcpServer | Api::PyMcpServer | Api::PyFastMcp1 => 1,
            Api::TsFastMcp | Api::PyFastMcp => 2,
        }
    }
}

/// What the audit tells of a server's source.
#[derive(Debug, PartialEq, Eq)]
pub struct BuiltOn {
    pub api: Api,
    /// The file the import is in (or the binary), relative to the current
    /// directory when it is under it.
    pub file: String,
    /// Told from a binary's bytes rather than an import.
    pub guess: bool,
}

/// The API the server the command starts is built on, read from the current
/// directory and the environment's `PATH` and `PYTHONPATH`.
pub fn of_command(command: &[String]) -> Option<BuiltOn> {
    let cwd = std::env::current_dir().ok()?;
    let path = std::env::var_os("PATH");
    let python_path = std::env::var_os("PYTHONPATH");
    built_on(command, &cwd, path.as_deref(), python_path.as_deref())
}

/// The API the server `command` starts is built on, as run in `cwd` with
/// these `PATH` and `PYTHONPATH`.
pub fn built_on(command: &[String], cwd: &Path, path: Option<&OsStr>, python_path: Option<&OsStr>) -> Option<BuiltOn> {
    let env = Env { path, python_path };
    let (api, file, guess) = match entry(command, cwd, &env)? {
        Entry::Js(file) => walk(vec![file], &Js).map(|(api, file)| (api, file, false))?,
        Entry::Python(start, scope) => walk(start, &scope).map(|(api, file)| (api, file, false))?,
        Entry::Binary(file) => (Api::Rmcp, file, true),
    };
    // A followed link is named from the real current folder.
    let real_cwd = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    let file = file
        .strip_prefix(cwd)
        .or_else(|_| file.strip_prefix(&real_cwd))
        .unwrap_or(&file)
        .display()
        .to_string();
    Some(BuiltOn { api, file, guess })
}

struct Env<'a> {
    path: Option<&'a OsStr>,
    python_path: Option<&'a OsStr>,
}

enum Entry {
    Js(PathBuf),
    /// The files to read first, and whose imports are the server's own.
    Python(Vec<PathBuf>, Python),
    /// A native binary holding the bytes `rmcp`.
    Binary(PathBuf),
}

fn entry(command: &[String], cwd: &Path, env: &Env) -> Option<Entry> {
    let (program, args) = command.split_first()?;
    match Path::new(program).file_name()?.to_str()? {
        "node" | "nodejs" | "tsx" | "bun" => js_runner(args, cwd),
        "npx" => npx(args, cwd),
        "uv" => uv(args, cwd, env),
        name if is_python(name) => python(&locate(program, cwd, env.path)?, args, cwd, env),
        _ => executable(&locate(program, cwd, env.path)?, env),
    }
}

fn is_python(name: &str) -> bool {
    name == "python"
        || name
            .strip_prefix("python3")
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// A program as the shell finds it: a path, or the first match on `PATH`.
fn locate(program: &str, cwd: &Path, path: Option<&OsStr>) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(cwd.join(program));
    }
    std::env::split_paths(path?)
        .map(|dir| cwd.join(dir).join(program))
        .find(|p| p.is_file())
}

/// `node [FLAGS] FILE`, `tsx FILE`, `bun [run] FILE`.
fn js_runner(args: &[String], cwd: &Path) -> Option<Entry> {
    let mut args = args.iter().skip_while(|a| *a == "run");
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-e" | "--eval" | "-p" | "--print" => return None,
            "-r" | "--require" | "--import" | "--loader" | "--experimental-loader" | "-C" | "--conditions" => {
                args.next();
            }
            flag if flag.starts_with('-') => {}
            file => return resolve_js(&cwd.join(file)).map(Entry::Js),
        }
    }
    None
}

/// `npx [-y] PACKAGE[@VERSION]`: the package's `bin` in the nearest `node_modules`.
fn npx(args: &[String], cwd: &Path) -> Option<Entry> {
    let spec = args.iter().find(|a| !a.starts_with('-'))?;
    let version_at = spec.char_indices().skip(1).find(|(_, c)| *c == '@').map(|(i, _)| i);
    let package = &spec[..version_at.unwrap_or(spec.len())];
    let dir = cwd
        .ancestors()
        .map(|d| d.join("node_modules").join(package))
        .find(|d| d.join("package.json").is_file())?;
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).ok()?).ok()?;
    let bin = match &manifest["bin"] {
        serde_json::Value::String(bin) => bin.as_str(),
        serde_json::Value::Object(bins) => {
            let own = package.rsplit('/').next().unwrap_or(package);
            match bins.get(own) {
                Some(bin) => bin.as_str()?,
                None if bins.len() == 1 => bins.values().next()?.as_str()?,
                None => return None,
            }
        }
        _ => return None,
    };
    resolve_js(&dir.join(bin)).map(Entry::Js)
}

/// `uv run [FLAGS] COMMAND`: the command in the project's `.venv`.
fn uv(args: &[String], cwd: &Path, env: &Env) -> Option<Entry> {
    let (run, args) = args.split_first()?;
    if run != "run" {
        return None;
    }
    let mut project = cwd.to_path_buf();
    let mut args = args.iter();
    let command = loop {
        let arg = args.next()?;
        match arg.as_str() {
            "--directory" | "--project" => project = cwd.join(args.next()?),
            "-m" | "--module" => {
                let venv_python = venv_bin(&project)?.join("python");
                return python(&venv_python, &["-m".to_owned(), args.next()?.clone()], &project, env);
            }
            "--with"
            | "--with-editable"
            | "--with-requirements"
            | "--python"
            | "-p"
            | "--package"
            | "--extra"
            | "--group"
            | "--env-file"
            | "--index"
            | "--default-index"
            | "--from" => {
                args.next();
            }
            "--" => break args.next()?,
            flag if flag.starts_with('-') => {}
            _ => break arg,
        }
    };
    let rest: Vec<String> = args.cloned().collect();
    let bin = venv_bin(&project);
    if is_python(command) || command.ends_with(".py") {
        let interpreter = bin
            .map(|b| b.join("python"))
            .or_else(|| locate(command, &project, env.path))?;
        let mut args = rest;
        if command.ends_with(".py") {
            args.insert(0, command.clone());
        }
        return python(&interpreter, &args, &project, env);
    }
    let program = bin
        .map(|b| b.join(command))
        .filter(|p| p.is_file())
        .or_else(|| locate(command, &project, env.path))?;
    executable(&program, env)
}

/// The `bin` folder of the `.venv` uv uses for a project folder: the nearest one above it.
fn venv_bin(project: &Path) -> Option<PathBuf> {
    project
        .ancestors()
        .map(|d| d.join(".venv").join("bin"))
        .find(|d| d.is_dir())
}

/// `python [FLAGS] -m MODULE` or `python [FLAGS] FILE`, with the folders
/// that interpreter imports from.
fn python(interpreter: &Path, args: &[String], cwd: &Path, env: &Env) -> Option<Entry> {
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-c" => return None,
            "-m" => {
                let module = args.next()?;
                let mut search = vec![cwd.to_path_buf()];
                search.extend(python_path(env, cwd));
                search.extend(site_packages(interpreter));
                return python_module(module, search, true);
            }
            "-X" | "-W" => {
                args.next();
            }
            flag if flag.starts_with('-') => {}
            file => {
                let file = cwd.join(file);
                let dir = file.parent()?.to_path_buf();
                let mut search = vec![dir.clone()];
                search.extend(python_path(env, cwd));
                search.extend(site_packages(interpreter));
                return Some(Entry::Python(
                    vec![file],
                    Python {
                        search,
                        own: Own::Folder(dir),
                    },
                ));
            }
        }
    }
    None
}

fn python_path(env: &Env, cwd: &Path) -> Vec<PathBuf> {
    env.python_path
        .map(|p| std::env::split_paths(p).map(|d| cwd.join(d)).collect())
        .unwrap_or_default()
}

/// A module run as the server: its files, and its top package as the
/// server's own code.
fn python_module(module: &str, search: Vec<PathBuf>, as_main: bool) -> Option<Entry> {
    let (root, files) = search.iter().find_map(|root| {
        let dir = root.join(module.replace('.', "/"));
        let files: Vec<PathBuf> = if dir.join("__init__.py").is_file() {
            let mut files = vec![dir.join("__init__.py")];
            if as_main && dir.join("__main__.py").is_file() {
                files.insert(0, dir.join("__main__.py"));
            }
            files
        } else if dir.with_extension("py").is_file() {
            vec![dir.with_extension("py")]
        } else {
            return None;
        };
        Some((root.clone(), files))
    })?;
    let top = module.split('.').next()?.to_owned();
    Some(Entry::Python(
        files,
        Python {
            search: vec![root],
            own: Own::Package(top),
        },
    ))
}

/// The `site-packages` folders of an interpreter in a `bin` folder (a venv's
/// or an installation's); a shim elsewhere has none, and only the current
/// folder and `PYTHONPATH` are searched.
fn site_packages(interpreter: &Path) -> Vec<PathBuf> {
    let Some(prefix) = interpreter.parent().and_then(Path::parent) else {
        return Vec::new();
    };
    let mut prefixes = vec![prefix.to_path_buf()];
    if prefix == Path::new("/usr") {
        prefixes.push(PathBuf::from("/usr/local"));
    }
    let mut found = Vec::new();
    for prefix in prefixes {
        found.push(prefix.join("Lib").join("site-packages"));
        if let Ok(entries) = std::fs::read_dir(prefix.join("lib")) {
            let mut versions: Vec<PathBuf> = entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("python3"))
                .map(|e| e.path())
                .collect();
            versions.sort();
            for version in versions {
                found.push(version.join("site-packages"));
                found.push(version.join("dist-packages"));
            }
        }
    }
    found.retain(|d| d.is_dir());
    found
}

/// A program run as it is: a native binary, or a script whose `#!` line names its interpreter.
fn executable(program: &Path, env: &Env) -> Option<Entry> {
    // A `node_modules/.bin` link is the package's own file, beside its imports.
    let program = program.canonicalize().ok()?;
    let meta = std::fs::metadata(&program).ok().filter(|m| m.is_file())?;
    let head = read_head(&program, 4096)?;
    const MAGIC: [&[u8]; 6] = [
        b"\x7fELF",
        b"\xfe\xed\xfa\xce",
        b"\xfe\xed\xfa\xcf",
        b"\xce\xfa\xed\xfe",
        b"\xcf\xfa\xed\xfe",
        b"\xca\xfe\xba\xbe",
    ];
    if MAGIC.iter().any(|m| head.starts_with(m)) {
        if meta.len() > MOST_BINARY_BYTES {
            return None;
        }
        let bytes = std::fs::read(&program).ok()?;
        return bytes.windows(4).any(|w| w == b"rmcp").then_some(Entry::Binary(program));
    }
    let shebang = head.strip_prefix(b"#!")?;
    let line = String::from_utf8_lossy(shebang.split(|b| *b == b'\n').next()?).into_owned();
    let mut words = line.split_whitespace();
    let mut interpreter = words.next()?.to_owned();
    if interpreter.ends_with("/env") {
        interpreter = words.find(|w| !w.starts_with('-'))?.to_owned();
    }
    let name = Path::new(&interpreter).file_name()?.to_str()?.to_owned();
    if ["node", "nodejs", "tsx", "bun"].contains(&name.as_str()) {
        return Some(Entry::Js(program));
    }
    if !is_python(&name) {
        return None;
    }
    let dir = program.parent()?.to_path_buf();
    let interpreter = locate(&interpreter, &dir, env.path)?;
    let mut search = vec![dir.clone()];
    search.extend(site_packages(&interpreter));
    let text = read_source(&program)?;
    // A console script (pip's, uv's) is `from MODULE import main` and a call:
    // the server is that module.
    let console = python_imports(&text)
        .into_iter()
        .find(|(module, names)| !names.is_empty() && !matches!(module.as_str(), "re" | "sys" | "os"))
        .and_then(|(module, _)| python_module(&module, search.clone(), false));
    console.or(Some(Entry::Python(
        vec![program],
        Python {
            search,
            own: Own::Folder(dir),
        },
    )))
}

fn read_head(file: &Path, most: usize) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(most);
    std::fs::File::open(file)
        .ok()?
        .take(most as u64)
        .read_to_end(&mut head)
        .ok()?;
    Some(head)
}

fn read_source(file: &Path) -> Option<String> {
    // Never a pipe or a device, which a read would wait on.
    let meta = std::fs::metadata(file).ok()?;
    if !meta.is_file() || meta.len() > MOST_SOURCE_BYTES {
        return None;
    }
    Some(String::from_utf8_lossy(&std::fs::read(file).ok()?).into_owned())
}

/// How a language's files are read: the API an import names, or the file of
/// the server's own code it leads to.
trait Language {
    /// Each import of a file's text: the API it tells, else the server's own file it leads to.
    fn imports(&self, file: &Path, text: &str) -> Vec<Result<Api, PathBuf>>;
}

/// Reads the server's files from the entry on, following its own imports,
/// and gives the highest API any of them imports and where.
fn walk(start: Vec<PathBuf>, language: &dyn Language) -> Option<(Api, PathBuf)> {
    let mut seen: HashSet<PathBuf> = start.iter().cloned().collect();
    let mut queue: VecDeque<PathBuf> = start.into();
    let mut best: Option<(Api, PathBuf)> = None;
    let mut read = 0;
    while let Some(file) = queue.pop_front() {
        if read == MOST_FILES {
            break;
        }
        read += 1;
        let Some(text) = read_source(&file) else { continue };
        for import in language.imports(&file, &text) {
            match import {
                Ok(api) if best.as_ref().is_none_or(|(b, _)| api.rank() > b.rank()) => {
                    best = Some((api, file.clone()));
                }
                Ok(_) => {}
                Err(next) => {
                    if seen.insert(next.clone()) {
                        queue.push_back(next);
                    }
                }
            }
        }
    }
    best
}

struct Js;

impl Language for Js {
    fn imports(&self, file: &Path, text: &str) -> Vec<Result<Api, PathBuf>> {
        let dir = file.parent().unwrap_or(Path::new("."));
        js_specifiers(text)
            .into_iter()
            .filter_map(|spec| match js_api(spec, text) {
                Some(api) => Some(Ok(api)),
                None if spec.starts_with("./") || spec.starts_with("../") => resolve_js(&dir.join(spec)).map(Err),
                None => None,
            })
            .collect()
    }
}

/// The module specifiers of `from '...'`, `import '...'`, `import('...')`
/// and `require('...')`, in any of the forms ESM, CommonJS and TypeScript
/// write them.
fn js_specifiers(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for keyword in ["from", "import", "require"] {
        for (at, _) in text.match_indices(keyword) {
            let before = at.checked_sub(1).map(|i| bytes[i]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.') {
                continue;
            }
            let mut rest = text[at + keyword.len()..].trim_start();
            if keyword != "from" {
                if let Some(inside) = rest.strip_prefix('(') {
                    rest = inside.trim_start();
                } else if keyword == "require" {
                    continue;
                }
            }
            let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                continue;
            };
            if let Some(end) = rest[1..].find(quote) {
                found.push((at, &rest[1..1 + end]));
            }
        }
    }
    found.sort();
    found.into_iter().map(|(_, spec)| spec).collect()
}

fn js_api(spec: &str, text: &str) -> Option<Api> {
    if spec == "fastmcp" || spec.starts_with("fastmcp/") {
        return Some(Api::TsFastMcp);
    }
    if let Some(path) = spec.strip_prefix("@modelcontextprotocol/sdk/") {
        let path = path.trim_start_matches("dist/esm/").trim_start_matches("dist/cjs/");
        let path = [".js", ".mjs", ".cjs", ".ts"]
            .iter()
            .find_map(|ext| path.strip_suffix(ext))
            .unwrap_or(path);
        return match path {
            "server/mcp" => Some(Api::TsMcpServer),
            "server/index" | "server" => Some(Api::TsLowLevel),
            _ => None,
        };
    }
    // The 2.x package exports both servers: the name used tells which.
    if spec == "@modelcontextprotocol/server" || spec.starts_with("@modelcontextprotocol/server/") {
        if has_word(text, "McpServer") {
            return Some(Api::TsMcpServer);
        }
        if has_word(text, "Server") {
            return Some(Api::TsLowLevel);
        }
    }
    None
}

fn has_word(text: &str, word: &str) -> bool {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
    text.match_indices(word)
        .any(|(at, _)| !ident(text[..at].chars().next_back()) && !ident(text[at + word.len()..].chars().next()))
}

/// A file Node would load for a path: as written, with an extension, or a
/// folder's index; TypeScript sources import `./x.js` meaning `./x.ts`.
fn resolve_js(path: &Path) -> Option<PathBuf> {
    let path = &lexical(path);
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    let name = path.file_name()?.to_str()?;
    let mut candidates: Vec<PathBuf> = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"]
        .iter()
        .map(|ext| path.with_file_name(format!("{name}{ext}")))
        .collect();
    if let Some(stem) = name.strip_suffix(".js") {
        candidates.push(path.with_file_name(format!("{stem}.ts")));
    }
    candidates.extend(["index.js", "index.ts"].iter().map(|index| path.join(index)));
    candidates.into_iter().find(|p| p.is_file())
}

/// A path with its `.` and `..` parts taken out, so that a file reached by
/// two imports is read once and named plainly.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            part => out.push(part),
        }
    }
    out
}

/// Python's files: where modules are found, and which of them are the server's own.
struct Python {
    search: Vec<PathBuf>,
    own: Own,
}

enum Own {
    /// A package run as a module or by a console script: its top-level name.
    Package(String),
    /// A script run as a file: the modules beside it.
    Folder(PathBuf),
}

impl Language for Python {
    fn imports(&self, file: &Path, text: &str) -> Vec<Result<Api, PathBuf>> {
        let mut found = Vec::new();
        for (module, names) in python_imports(text) {
            if let Some(api) = python_api(&module, &names) {
                found.push(Ok(api));
                continue;
            }
            // The module and, for `from M import x`, the submodule `M.x` it may name.
            let mut paths: Vec<String> = vec![module.clone()];
            let dot = if module.ends_with('.') { "" } else { "." };
            paths.extend(names.iter().map(|name| format!("{module}{dot}{name}")));
            for path in paths {
                if let Some(next) = self.own_file(file, &path) {
                    found.push(Err(next));
                }
            }
        }
        found
    }
}

impl Python {
    /// The file of a module the server's own code holds, resolved from the
    /// importing file (a relative `.x`) or the search folders.
    fn own_file(&self, from: &Path, module: &str) -> Option<PathBuf> {
        let dotted = module.trim_start_matches('.');
        let level = module.len() - dotted.len();
        let base = if level > 0 {
            let mut dir = from.parent()?.to_path_buf();
            for _ in 1..level {
                dir = dir.parent()?.to_path_buf();
            }
            dir
        } else {
            match &self.own {
                Own::Package(top) if dotted.split('.').next() == Some(top) => self
                    .search
                    .iter()
                    .find(|root| root.join(top).exists() || root.join(format!("{top}.py")).is_file())?
                    .clone(),
                Own::Folder(dir) => dir.clone(),
                Own::Package(_) => return None,
            }
        };
        if dotted.is_empty() {
            return None;
        }
        let path = base.join(dotted.replace('.', "/"));
        [path.with_extension("py"), path.join("__init__.py")]
            .into_iter()
            .find(|p| p.is_file())
    }
}

/// Each import statement of a Python file: the module, and the names a
/// `from` import takes from it (none for `import M`). Relative modules keep
/// their dots.
fn python_imports(text: &str) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("from ") {
            let Some((module, names)) = rest.split_once(" import ") else {
                continue;
            };
            let mut names = names.to_owned();
            // A parenthesized list may run over lines.
            if names.contains('(') {
                while !names.contains(')') {
                    match lines.next() {
                        Some(more) => names.push_str(more),
                        None => break,
                    }
                }
            }
            let names = names
                .split(['(', ')', ','])
                .filter_map(|n| n.split_whitespace().next())
                .filter(|n| !n.starts_with('#') && *n != "\\")
                .map(str::to_owned)
                .collect();
            found.push((module.trim().to_owned(), names));
        } else if let Some(rest) = line.strip_prefix("import ") {
            for module in rest.split(',') {
                if let Some(module) = module.split_whitespace().next() {
                    found.push((module.to_owned(), Vec::new()));
                }
            }
        }
    }
    found
}

fn python_api(module: &str, names: &[String]) -> Option<Api> {
    let under =
        |package: &str| module == package || module.strip_prefix(package).is_some_and(|rest| rest.starts_with('.'));
    if under("fastmcp") {
        return Some(Api::PyFastMcp);
    }
    if under("mcp.server.mcpserver") {
        return Some(Api::PyMcpServer);
    }
    if under("mcp.server.fastmcp") {
        return Some(Api::PyFastMcp1);
    }
    if under("mcp.server.lowlevel") {
        return Some(Api::PyLowLevel);
    }
    if module == "mcp.server" {
        return names
            .iter()
            .filter_map(|name| match name.as_str() {
                "MCPServer" | "mcpserver" => Some(Api::PyMcpServer),
                "FastMCP" | "fastmcp" => Some(Api::PyFastMcp1),
                "Server" | "lowlevel" => Some(Api::PyLowLevel),
                _ => None,
            })
            .max_by_key(|api| api.rank());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{built_on, python_imports, Api, BuiltOn};
    use std::path::{Path, PathBuf};

    /// A fresh folder holding the given files (a path ending in `/` is a folder).
    fn folder(files: &[(&str, &str)]) -> PathBuf {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("mcp-envelope-built-on-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            if path.ends_with('/') {
                std::fs::create_dir_all(dir.join(path)).unwrap();
                continue;
            }
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
        }
        dir
    }

    fn of(command: &str, cwd: &Path) -> Option<(Api, String, bool)> {
        let command: Vec<String> = command.split(' ').map(str::to_owned).collect();
        built_on(&command, cwd, None, None).map(|BuiltOn { api, file, guess }| (api, file, guess))
    }

    fn told(api: Api, file: &str) -> Option<(Api, String, bool)> {
        Some((api, file.to_owned(), false))
    }

    #[test]
    fn node_files_are_read_for_their_sdk_imports_and_their_own_imports_followed() {
        let dir = folder(&[
            ("low.mjs", "#!/usr/bin/env node\nimport { Server } from \"@modelcontextprotocol/sdk/server/index.js\";\nimport { z } from 'zod';\n"),
            ("index.js", "import './env.js';\nimport { start } from './src/server.js';\nstart();\n"),
            ("env.js", "export const env = process.env;\n"),
            ("src/server.ts", "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n"),
            ("v2.mjs", "import { McpServer, StdioServerTransport } from '@modelcontextprotocol/server';\n"),
            ("v2-low.mjs", "import { Server } from '@modelcontextprotocol/server';\nnew Server({ name: 'x' });\n"),
            ("compiled.cjs", "const index_js_1 = require(\"@modelcontextprotocol/sdk/server/index.js\");\n"),
            ("framework.js", "import { FastMCP } from \"fastmcp\";\nimport type { CallToolResult } from '@modelcontextprotocol/sdk/server/mcp.js';\n"),
            ("plain.js", "// read from \"@modelcontextprotocol/sdk\"\nconsole.log(1);\n"),
        ]);
        assert_eq!(of("node low.mjs", &dir), told(Api::TsLowLevel, "low.mjs"));
        assert_eq!(
            of("node --enable-source-maps index.js", &dir),
            told(Api::TsMcpServer, "src/server.ts")
        );
        assert_eq!(of("tsx v2.mjs", &dir), told(Api::TsMcpServer, "v2.mjs"));
        assert_eq!(of("node v2-low.mjs", &dir), told(Api::TsLowLevel, "v2-low.mjs"));
        assert_eq!(of("node compiled.cjs", &dir), told(Api::TsLowLevel, "compiled.cjs"));
        assert_eq!(
            of("node -r dotenv/config framework.js", &dir),
            told(Api::TsFastMcp, "framework.js")
        );
        assert_eq!(of("node plain.js", &dir), None);
        assert_eq!(of("node -e 1", &dir), None);
        assert_eq!(of("node missing.js", &dir), None);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn npx_and_a_bin_link_lead_to_the_package_s_bin_entry() {
        let dir = folder(&[
            (
                "node_modules/@modelcontextprotocol/server-github/package.json",
                r#"{"name":"@modelcontextprotocol/server-github","bin":{"mcp-server-github":"dist/index.js"}}"#,
            ),
            (
                "node_modules/@modelcontextprotocol/server-github/dist/index.js",
                "#!/usr/bin/env node\nimport { Server } from \"@modelcontextprotocol/sdk/server/index.js\";\n",
            ),
            (
                "node_modules/mcp-time/package.json",
                r#"{"name":"mcp-time","bin":"cli.js"}"#,
            ),
            (
                "node_modules/mcp-time/cli.js",
                "#!/usr/bin/env node\nimport './lib/main.js';\n",
            ),
            (
                "node_modules/mcp-time/lib/main.js",
                "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n",
            ),
            ("project/", ""),
        ]);
        let github = "node_modules/@modelcontextprotocol/server-github/dist/index.js";
        assert_eq!(
            of(
                "npx -y @modelcontextprotocol/server-github@2025.4.8",
                &dir.join("project")
            ),
            Some((Api::TsLowLevel, dir.join(github).display().to_string(), false))
        );
        assert_eq!(
            of("npx mcp-time", &dir),
            told(Api::TsMcpServer, "node_modules/mcp-time/lib/main.js")
        );
        std::fs::create_dir_all(dir.join("node_modules/.bin")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(
            "../@modelcontextprotocol/server-github/dist/index.js",
            dir.join("node_modules/.bin/mcp-server-github"),
        )
        .unwrap();
        // The link is resolved to the package's file: the report names where the import is.
        #[cfg(unix)]
        assert_eq!(
            of("node_modules/.bin/mcp-server-github", &dir),
            told(Api::TsLowLevel, github)
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn python_modules_files_and_console_scripts_are_read_with_their_own_package() {
        let site = "venv/lib/python3.11/site-packages";
        let dir = folder(&[
            ("sqlite_like/__main__.py", "from sqlite_like import main\n\nmain()\n"),
            ("sqlite_like/__init__.py", "from . import server\nimport asyncio\n\ndef main():\n    asyncio.run(server.main())\n"),
            ("sqlite_like/server.py", "import mcp.server.stdio\nfrom mcp.server import NotificationOptions, Server\n"),
            ("lowlevel.py", "from mcp.server.lowlevel import (\n    NotificationOptions,\n    Server,  # the SDK's\n)\n"),
            ("v1.py", "from mcp.server.fastmcp import FastMCP\n"),
            ("app.py", "from tools.time import register\n"),
            ("tools/__init__.py", ""),
            ("tools/time.py", "from fastmcp import FastMCP\nfrom mcp.server.lowlevel.helper_types import ReadResourceContents\n"),
            ("wrapped.py", "from mcp_envelope.lowlevel import envelope_server\n"),
            (&format!("{site}/mcp_envelope/lowlevel.py"), "from mcp.server.lowlevel import Server\n"),
            (&format!("{site}/mcp_time/__init__.py"), "from .server import serve\n\ndef main():\n    serve()\n"),
            (&format!("{site}/mcp_time/server.py"), "from mcp.server.mcpserver import MCPServer\n"),
            ("venv/bin/python", ""),
            ("venv/bin/mcp-time", "#!VENV/bin/python\n# -*- coding: utf-8 -*-\nimport re\nimport sys\nfrom mcp_time import main\nif __name__ == '__main__':\n    sys.exit(main())\n"),
            (".venv/bin/python", ""),
            (".venv/bin/mcp-time", "#!VENV/bin/python\nimport sys\nfrom mcp_time import main\nsys.exit(main())\n"),
            (".venv/lib/python3.12/site-packages/mcp_time/__init__.py", "from mcp.server import FastMCP\n"),
        ]);
        for script in ["venv/bin/mcp-time", ".venv/bin/mcp-time"] {
            let venv = dir
                .join(script)
                .parent()
                .unwrap()
                .parent()
                .unwrap()
                .display()
                .to_string();
            let text = std::fs::read_to_string(dir.join(script))
                .unwrap()
                .replace("VENV", &venv);
            std::fs::write(dir.join(script), text).unwrap();
        }
        assert_eq!(
            of("venv/bin/python -m sqlite_like", &dir),
            told(Api::PyLowLevel, "sqlite_like/server.py")
        );
        assert_eq!(
            of("venv/bin/python -u lowlevel.py", &dir),
            told(Api::PyLowLevel, "lowlevel.py")
        );
        assert_eq!(of("venv/bin/python v1.py", &dir), told(Api::PyFastMcp1, "v1.py"));
        assert_eq!(
            of("venv/bin/python app.py", &dir),
            told(Api::PyFastMcp, "tools/time.py")
        );
        // An installed library is not the server's own code, whatever it imports.
        assert_eq!(of("venv/bin/python wrapped.py", &dir), None);
        assert_eq!(
            of("venv/bin/python -m mcp_time", &dir),
            told(Api::PyMcpServer, &format!("{site}/mcp_time/server.py"))
        );
        assert_eq!(
            of("venv/bin/mcp-time", &dir),
            told(Api::PyMcpServer, &format!("{site}/mcp_time/server.py"))
        );
        let uv_site = ".venv/lib/python3.12/site-packages/mcp_time/__init__.py";
        assert_eq!(of("uv run mcp-time", &dir), told(Api::PyFastMcp1, uv_site));
        assert_eq!(
            of("uv run --with x python -m sqlite_like", &dir),
            told(Api::PyLowLevel, "sqlite_like/server.py")
        );
        assert_eq!(of("venv/bin/python -c 1", &dir), None);
        assert_eq!(of("uvx mcp-time", &dir), None);
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// A native binary holding rmcp's name is a guess, marked as one: this
    /// test's own binary links rmcp; `true` does not.
    #[test]
    fn a_native_binary_with_rmcp_in_it_is_a_guess() {
        let me = std::env::current_exe().unwrap();
        let root = Path::new("/");
        let found = built_on(&[me.display().to_string()], root, None, None).unwrap();
        assert_eq!((found.api, found.guess), (Api::Rmcp, true));
        let path = std::env::var_os("PATH");
        assert_eq!(built_on(&["true".to_owned()], root, path.as_deref(), None), None);
    }

    #[test]
    fn python_imports_are_read_over_lines_and_aliases() {
        let text = "import os, mcp.server.stdio as stdio\nfrom mcp.server import (\n    Server as S,\n    NotificationOptions,\n)\n    from .x import y\n# from fastmcp import FastMCP\n";
        let imports = python_imports(text);
        let want: Vec<(String, Vec<String>)> = vec![
            ("os".into(), vec![]),
            ("mcp.server.stdio".into(), vec![]),
            ("mcp.server".into(), vec!["Server".into(), "NotificationOptions".into()]),
            (".x".into(), vec!["y".into()]),
        ];
        assert_eq!(imports, want);
    }
}
