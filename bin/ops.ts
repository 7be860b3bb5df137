/**
 * `npm run ops -- <command>`: the operator CLI (commands in lib/ops). It acts on the
 * local stack `npm start` runs, or with `--stage production|sandbox` on a deployed one.
 */
import { openOpsTarget, takeStageOption } from '../lib/ops-cli/ops-target';
import { EXIT_USAGE, runOps } from '../lib/ops-cli/run-ops';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

let selection: ReturnType<typeof takeStageOption> | undefined;
try {
  selection = takeStageOption(process.argv.slice(2));
} catch (error) {
  err(`Error: ${(error as Error).message}`);
  process.exitCode = EXIT_USAGE;
}

if (selection) {
  const { stage, rest } = selection;
  process.exitCode = await runOps(rest, {
    out,
    err,
    stage,
    deps: async () => {
      const target = await openOpsTarget({ stage });
      // Say so on stderr whenever a command reaches a deployed stack, so nobody changes production by accident.
      if (stage) err(`Target: ${target.description}`);
      return target.deps;
    },
  });
}
