import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('the README shows the library example exactly as test/readme_example.test.ts runs it', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const example = readFileSync(new URL('./readme_example.test.ts', import.meta.url), 'utf8')
    .split('\n')
    .slice(1)
    .join('\n')
    .trim();
  const block = /<!-- library-example -->\n+```ts\n([\s\S]*?)```/.exec(readme)?.[1]?.trim();
  expect(block).toBe(example);
});

it('the README opens with the two commands a newcomer needs', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  expect(readme.slice(0, 300)).toContain('npm ci && npm start');
  expect(readme.slice(0, 300)).toContain('npm test');
});
