import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const [command, ...args] = process.argv.slice(2);
const t = new StdioClientTransport({ command, args, stderr: 'pipe', cwd: '/tmp/pubprobe/wordwork' });
let err=''; t.stderr.on('data', d => err += d);
const c = new Client({ name: 'x', version: '0' });
const t0 = Date.now();
await c.connect(t);
const tools = await c.listTools();
console.log('started+listed in', Date.now()-t0, 'ms;', tools.tools.length, 'tools:', tools.tools.map(t=>t.name).join(' ').slice(0,300));
for (const [name, a] of [['get_document_text', {filename: 'missing.docx'}], ['create_document', {filename: 'a.docx', title: 'T'}], ['get_document_text', {filename: 'a.docx'}], ['get_document_text', {filename: 42}], ['get_document_text', {}], ['add_paragraph', {filename: 'a.docx', text: 'x', style: 'NoSuchStyle'}], ['nope', {}]]) {
  try { const r = await c.request({ method: 'tools/call', params: { name, arguments: a } }, (await import('zod')).looseObject({})); console.log(name, JSON.stringify(a), '->', JSON.stringify(r).slice(0, 300)); }
  catch (e) { console.log(name, '-> error', e.code, e.message.slice(0, 200)); }
}
await c.close();
console.error('stderr:', err.slice(0, 1500));
