/**
 * dipswitch in a container from a Node test suite, with Testcontainers (`dipswitch/testcontainers`;
 * `testcontainers` is an optional peer dependency): `await new DipswitchContainer(image).start()`
 * answers the server's address, its SMPP port, the fixture keys and the typed control client, acting
 * with the admin token the container was given (a random one unless `withAdminToken` says).
 */
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { systemRandom } from '../deps.js';
import { token } from '../domain/secrets.js';
import { FIXTURE_KEYS } from '../store/fixtures.js';
import { connectDipswitch, type ControlClient, type SandboxClient } from './control_client.js';

/** The image's ports: HTTP (/api/v1 and /__sim) and SMPP. */
export const HTTP_PORT = 4010;
export const SMPP_PORT = 2775;

/** A started dipswitch container. */
export interface StartedDipswitch {
  /** The base URL on the host, e.g. `http://127.0.0.1:32768`. */
  readonly url: string;
  /** The SMPP port on the host. */
  readonly smppPort: number;
  /** The fixture keys (interface.md section 3). */
  readonly keys: typeof FIXTURE_KEYS;
  /** The admin token the container guards /__sim with. */
  readonly adminToken: string;
  readonly container: StartedTestContainer;
  /** The typed control client, with the admin token. */
  client(): ControlClient;
  /** A fresh sandbox and a client acting on it alone. */
  sandbox(name?: string): Promise<SandboxClient>;
  stop(): Promise<void>;
}

/** dipswitch's image as a Testcontainers container; every setting goes in as the environment variable the command reads. */
export class DipswitchContainer {
  private readonly env: Record<string, string> = {};
  private scenarios?: string;
  private token?: string;

  constructor(private readonly image = 'dipswitch:latest') {}

  /** Guards /__sim with this token (a random one otherwise). */
  withAdminToken(adminToken: string): this {
    this.token = adminToken;
    return this;
  }

  /** `frozen` (time moves only when a test moves it) or `real`. */
  withClock(mode: 'frozen' | 'real'): this {
    this.env.CLOCK = mode;
    return this;
  }

  /** Where the clocks start. */
  withStartTime(time: Date | string): this {
    this.env.START_TIME = new Date(time).toISOString();
    return this;
  }

  /** Seeds ids and secrets, so runs repeat. */
  withSeed(seed: number): this {
    this.env.SEED = String(seed);
    return this;
  }

  /** A folder of the test's scenarios, copied into the container. */
  withScenarios(dir: string): this {
    this.scenarios = dir;
    return this;
  }

  async start(): Promise<StartedDipswitch> {
    const adminToken = this.token ?? token(systemRandom(), 24);
    let container = new GenericContainer(this.image)
      .withEnvironment({
        ...this.env,
        SIM_ADMIN_TOKEN: adminToken,
        ...(this.scenarios ? { SCENARIOS: '/scenarios' } : {}),
      })
      .withExposedPorts(HTTP_PORT, SMPP_PORT)
      .withWaitStrategy(Wait.forHttp('/__sim/health', HTTP_PORT).forStatusCode(200));
    if (this.scenarios)
      container = container.withCopyDirectoriesToContainer([{ source: this.scenarios, target: '/scenarios' }]);
    const started = await container.start();
    const url = `http://${started.getHost()}:${started.getMappedPort(HTTP_PORT)}`;
    const client = () => connectDipswitch(url, { adminToken });
    return {
      url,
      smppPort: started.getMappedPort(SMPP_PORT),
      keys: { ...FIXTURE_KEYS },
      adminToken,
      container: started,
      client,
      sandbox: (name) => client().sandbox(name),
      // with its anonymous /data volume
      stop: async () => void (await started.stop({ removeVolumes: true })),
    };
  }
}
