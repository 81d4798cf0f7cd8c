// Routes MCP Streamable HTTP at /mcp to one server and transport per session:
// an `initialize` without a session id opens one, every later request names
// it in Mcp-Session-Id, DELETE ends it. Works for SDK 1.x and 2.x transports.

import { createServer } from 'node:http';

/**
 * @param app an Express app (the SDKs' createMcpExpressApp, which parses JSON bodies)
 * @param openSession (callbacks) => Promise<transport>: builds a server, connects it
 *   to a new transport built with `callbacks` among its options, returns the transport
 */
export function routeSessions(app, openSession) {
  const transports = new Map(); // session id → transport

  app.post('/mcp', async (req, res) => {
    const sessionId = req.get('mcp-session-id');
    try {
      if (sessionId !== undefined) {
        const transport = transports.get(sessionId);
        if (transport === undefined) return refuse(res, 404, -32001, 'Session not found');
        return await transport.handleRequest(req, res, req.body);
      }
      if (req.body?.method !== 'initialize') {
        return refuse(res, 400, -32000, 'Bad Request: no Mcp-Session-Id; a session starts with initialize');
      }
      const transport = await openSession({
        onsessioninitialized: (id) => void transports.set(id, transport),
        onsessionclosed: (id) => void transports.delete(id)
      });
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      console.error('conformance server: POST /mcp failed:', error);
      if (!res.headersSent) refuse(res, 500, -32603, 'Internal server error');
    }
  });

  // GET opens (or, with Last-Event-ID, resumes) a session's SSE stream; DELETE ends the session.
  const bySession = async (req, res) => {
    const transport = transports.get(req.get('mcp-session-id') ?? '');
    if (transport === undefined) return refuse(res, 400, -32000, 'Bad Request: unknown or missing Mcp-Session-Id');
    try {
      await transport.handleRequest(req, res);
    } catch (error) {
      console.error(`conformance server: ${req.method} /mcp failed:`, error);
      if (!res.headersSent) refuse(res, 500, -32603, 'Internal server error');
    }
  };
  app.get('/mcp', bySession);
  app.delete('/mcp', bySession);
}

function refuse(res, status, code, message) {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** Reads `plain|wrapped` and a port from the command line, or exits with usage. */
export function parseArguments(argv) {
  const [mode, port] = argv;
  if ((mode !== 'plain' && mode !== 'wrapped') || !/^[0-9]+$/.test(port ?? '') || Number(port) > 65535) {
    console.error('usage: <server> plain|wrapped PORT  (serves MCP Streamable HTTP at http://127.0.0.1:PORT/mcp)');
    process.exit(2);
  }
  return { wrapped: mode === 'wrapped', port: Number(port) };
}

/** Listens on loopback and says `listening` on stdout once ready (the only line a conformance server prints there). */
export function listen(app, port) {
  const server = createServer(app);
  server.on('error', (error) => {
    console.error(`conformance server: cannot listen on 127.0.0.1:${port}: ${error.message}`);
    process.exit(1);
  });
  server.listen(port, '127.0.0.1', () => console.log('listening'));
  return server;
}
