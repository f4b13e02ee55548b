/**
 * dipswitch in a container from a Node test suite, with Testcontainers (`dipswitch/testcontainers`;
 * `testcontainers` is an optional peer dependency). `DipswitchContainer` is a `GenericContainer`: every
 * `with…` of Testcontainers (`withNetwork`, `withReuse`, `withLogConsumer`…) is there beside dipswitch's own,
 * each returning the container. `start()` answers a `StartedDipswitchContainer`, a `StartedTestContainer` with
 * dipswitch's getters: the server's address, its SMPP port, the fixture keys, the admin token and the typed
 * control client acting with it. The image and the token come from the argument or `withAdminToken`, else
 * `DIPSWITCH_IMAGE` and `DIPSWITCH_ADMIN_TOKEN`, else `dipswitch:VERSION` and a random token.
 */
import { AbstractStartedContainer, GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import type { StopOptions, StoppedTestContainer } from 'testcontainers';
import { systemRandom } from '../deps.js';
import { token } from '../domain/secrets.js';
import { FIXTURE_KEYS } from '../store/fixtures.js';
import { packageVersion } from '../contract.js';
import { connectDipswitch, type ControlClient, type SandboxClient } from './control_client.js';

/** The image's ports: HTTP (/api/v1 and /__sim) and SMPP. */
export const HTTP_PORT = 4010;
export const SMPP_PORT = 2775;

/** The image a container starts when none is named: `DIPSWITCH_IMAGE`, else this release's tag. */
export const defaultImage = (): string => process.env.DIPSWITCH_IMAGE || `dipswitch:${packageVersion}`;

/** dipswitch's image as a Testcontainers container; every setting goes in as the environment variable the command reads. */
export class DipswitchContainer extends GenericContainer {
  private adminToken?: string;

  constructor(image: string = defaultImage()) {
    super(image);
    this.withExposedPorts(HTTP_PORT, SMPP_PORT).withWaitStrategy(
      Wait.forHttp('/__sim/health', HTTP_PORT).forStatusCode(200),
    );
  }

  /** Guards /__sim with this token (else `DIPSWITCH_ADMIN_TOKEN`, else a random one). */
  withAdminToken(adminToken: string): this {
    this.adminToken = adminToken;
    return this;
  }

  /** `frozen` (time moves only when a test moves it) or `real`. */
  withClock(mode: 'frozen' | 'real'): this {
    return this.withEnvironment({ CLOCK: mode });
  }

  /** Where the clocks start. */
  withStartTime(time: Date | string): this {
    return this.withEnvironment({ START_TIME: new Date(time).toISOString() });
  }

  /** Seeds ids and secrets, so runs repeat. */
  withSeed(seed: number): this {
    return this.withEnvironment({ SEED: String(seed) });
  }

  /** A folder of the test's scenarios (`.mjs` or `.js`), copied into the container and served. */
  withScenarios(dir: string): this {
    return this.withEnvironment({ SCENARIOS: '/scenarios' }).withCopyDirectoriesToContainer([
      { source: dir, target: '/scenarios' },
    ]);
  }

  override async start(): Promise<StartedDipswitchContainer> {
    const adminToken = this.adminToken || process.env.DIPSWITCH_ADMIN_TOKEN || token(systemRandom(), 24);
    this.withEnvironment({ SIM_ADMIN_TOKEN: adminToken });
    return new StartedDipswitchContainer(await super.start(), adminToken);
  }
}

/** A started dipswitch container: a `StartedTestContainer` with dipswitch's getters and clients. */
export class StartedDipswitchContainer extends AbstractStartedContainer {
  /** The fixture keys (interface.md section 3). */
  readonly keys = { ...FIXTURE_KEYS };

  constructor(
    started: StartedTestContainer,
    /** The admin token the container guards /__sim with. */
    readonly adminToken: string,
  ) {
    super(started);
  }

  /** The base URL on the host, e.g. `http://127.0.0.1:32768`. */
  get url(): string {
    return `http://${this.getHost()}:${this.getMappedPort(HTTP_PORT)}`;
  }

  /** The SMPP port on the host. */
  get smppPort(): number {
    return this.getMappedPort(SMPP_PORT);
  }

  /** The typed control client, with the admin token. */
  client(): ControlClient {
    return connectDipswitch(this.url, { adminToken: this.adminToken });
  }

  /** A fresh sandbox and a client acting on it alone. */
  sandbox(name?: string): Promise<SandboxClient> {
    return this.client().sandbox(name);
  }

  /** Stops the container and removes it with its anonymous /data volume (unless the options say otherwise). */
  override stop(options?: Partial<StopOptions>): Promise<StoppedTestContainer> {
    return super.stop({ removeVolumes: true, ...options });
  }
}

/** The started container, by its former name. */
export type StartedDipswitch = StartedDipswitchContainer;
