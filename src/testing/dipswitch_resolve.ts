/**
 * A module resolution hook (node:module `register`) for users' scenario files: `import … from
 * 'dipswitch'` names the running dipswitch's own entry, so a scenario folder anywhere works without
 * dipswitch installed beside it. Registered by the scenario runner of the built command.
 */
import type { InitializeHook, ResolveHook } from 'node:module';

let entry = '';

export const initialize: InitializeHook<{ entry: string }> = (data) => {
  entry = data.entry;
};

export const resolve: ResolveHook = (specifier, context, next) =>
  specifier === 'dipswitch' && entry ? { url: entry, shortCircuit: true } : next(specifier, context);
