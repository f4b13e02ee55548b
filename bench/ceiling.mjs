// The ceiling: the least a server can do to answer a fixed JSON body (express, and raw node:http).
import http from 'node:http';
import express from 'express';

const [mode, port] = process.argv.slice(2);
const body = JSON.stringify({
  data: { id: '0a0a0a0a-0000-4000-8000-000000000301', name: 'ceiling', active: true },
  type: 'api_key',
});
if (mode === 'express') {
  const app = express();
  app.get('/{*any}', (_req, res) => res.type('application/json').send(body));
  app.listen(Number(port), '127.0.0.1');
} else {
  http
    .createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    })
    .listen(Number(port), '127.0.0.1');
}
