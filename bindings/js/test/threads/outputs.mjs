// What one thread answers for a list of specs: each spec's three renderings,
// its CallToolResult and the reading of its XML, or the refusal's message.
// test/threads.test.mjs computes it on the main thread and in workers.
import { parseEnvelope, render } from 'mcp-envelope';
import { callToolResultJson } from 'mcp-envelope/raw';

function answer(spec) {
  try {
    const xml = render(spec, { format: 'xml' });
    return [
      xml,
      render(spec, { format: 'json' }),
      render(spec, { format: 'text' }),
      callToolResultJson(spec, { format: 'xml' }),
      JSON.stringify(parseEnvelope(xml)),
    ];
  } catch (error) {
    return [`${error.name}: ${error.message}`];
  }
}

/** The answers for `specs`, computed `rounds` times: the first round's, and how many later answers differed from it. */
export function outputs(specs, rounds) {
  const first = specs.map(answer);
  let differing = 0;
  for (let round = 1; round < rounds; round++) {
    specs.forEach((spec, index) => {
      if (JSON.stringify(answer(spec)) !== JSON.stringify(first[index])) differing++;
    });
  }
  return { answers: first, differing };
}
