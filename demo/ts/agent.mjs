#!/usr/bin/env node
// A scripted agent, not a language model: it plays demo/plan.json against a
// billing server over stdio twice, and writes what happened as JSON.
//   - "model alone": each answer is a model turn; a failed answer is sent
//     again as it was, as models do, up to three turns.
//   - "host loop": each call goes through callToolWithRecovery (the core's
//     host-step): the host waits out what is transient within its budget and
//     escalates what it cannot resolve, and only what the model must fix
//     comes back to it, which sends it again as it was, up to three turns.
// Each run starts the server afresh, so both meet the same state. The turns
// and end states are scored by demo/compare.mjs (--agent), which reads this
// and the Python twin's (demo/python/agent.py) alike.
//   node demo/ts/agent.mjs --plan demo/plan.json -- COMMAND [ARGS...]
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { callToolWithRecovery } from 'mcp-envelope/agent';

const TURNS = 3;
const args = process.argv.slice(2);
const split = args.indexOf('--');
if (args[0] !== '--plan' || split !== 2 || split + 1 >= args.length) {
  console.error('usage: node demo/ts/agent.mjs --plan PLAN -- COMMAND [ARGS...]');
  process.exit(2);
}
const plan = JSON.parse(readFileSync(args[1], 'utf8'));
const [command, ...commandArgs] = args.slice(split + 1);

/** One call as the model alone gets it: `done` for a success, `failed` for anything else. */
async function alone(client, call) {
  try {
    const result = await client.callTool({ name: call.tool, arguments: call.arguments ?? {} });
    return { then: result.isError === true ? 'failed' : 'done', calls: 1 };
  } catch {
    return { then: 'failed', calls: 1 };
  }
}

/** One call through the host loop: `done`, `to-model` or `escalate`, and how many calls the host made. */
async function withHostLoop(client, call, tools) {
  const { then, tried } = await callToolWithRecovery(client, { name: call.tool, arguments: call.arguments ?? {} },
    { tool: tools.get(call.tool) });
  return { then, calls: tried.length };
}

async function play(mode) {
  const client = new Client({ name: 'scripted-agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args: commandArgs, stderr: 'ignore' }));
  const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
  const rows = [];
  for (const call of plan.calls) {
    const turns = [];
    while (turns.length < TURNS) {
      const turn = mode === 'alone' ? await alone(client, call) : await withHostLoop(client, call, tools);
      turns.push(turn);
      // The model has its answer, or the host escalated: the run of this call ends.
      if (turn.then === 'done' || turn.then === 'escalate') break;
    }
    rows.push({ name: call.name, expected: call.expect.branch, turns });
  }
  await client.close();
  return rows;
}

const report = { agent: 'typescript', command: [command, ...commandArgs], alone: await play('alone'), hostLoop: await play('host-loop') };
console.log(JSON.stringify(report));
