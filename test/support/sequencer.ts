/**
 * The order vitest starts test files in: the long ones first, so that they run beside the many
 * short ones instead of after them (without a cache of earlier runs, as in CI, vitest would start
 * the largest files first, which are not the slowest).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take longest (child processes, other languages' toolchains, the image, the package, a
 * browser), slowest first, as a fresh-clone `.ci/run` on a machine of two cores measured them (3346736).
 */
const SLOW = [
  'containers:test/containers/clients.test.ts',
  'once:test/project/recipes.test.ts',
  'embedded:test/store/instances.test.ts',
  'once:test/clients/python.test.ts',
  'embedded:test/cli/cli.test.ts',
  'once:test/clients/java.test.ts',
  'containers:test/containers/image.test.ts',
  'embedded:test/store/listen_instances.test.ts',
  'embedded:test/project/package.test.ts',
  'once:test/project/dashboard.test.ts',
  'embedded:test/store/outages.test.ts',
  'postgres:test/transport/slow_clients.test.ts',
  'embedded:test/transport/slow_clients.test.ts',
  'postgres:test/reliability/races.test.ts',
  'embedded:test/reliability/memory.test.ts',
  'postgres:test/fuzz/fuzz.test.ts',
  'embedded:test/fuzz/fuzz.test.ts',
  'embedded:test/reliability/hosting.test.ts',
];

function rank(spec: TestSpecification): number {
  const at = SLOW.findIndex((entry) => {
    const [project, file] = entry.split(':') as [string, string];
    return spec.project.name === project && spec.moduleId.endsWith(file);
  });
  return at < 0 ? SLOW.length : at;
}

export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
