/** `npm run scenario -- NAME`: runs one scenario against a fresh in-memory server and prints its timeline. */
import type { AddressInfo } from 'node:net';
import { silentLogger } from './deps.js';
import { formatTimeline } from './sim/scenario.js';
import { runScenarioByName, scenarioNames } from './sim/scenario_runner.js';
import { buildServer, listen } from './server.js';

const name = process.argv[2];
if (!name) {
  console.log(`usage: npm run scenario -- NAME\nscenarios: ${scenarioNames().join(', ')}`);
  process.exit(2);
}
const { app, runtime } = await buildServer({
  store: { memory: true },
  seed: 1,
  clockMode: 'frozen',
  startTime: new Date('2026-03-01T12:00:00.000Z'),
  logger: silentLogger,
});
const server = await listen(app, 0, '127.0.0.1');
const result = await runScenarioByName(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, name).catch(
  (e: Error) => {
    console.error(e.message);
    process.exit(2);
  },
);
console.log(formatTimeline(result));
await runtime.close();
server.close();
process.exitCode = result.passed ? 0 : 1;
