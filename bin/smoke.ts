import { runSmokeCli } from '../lib/smoke-test/run-smoke';

// Only the partner's key: the smoke test needs no AWS credentials (docs/operations.md, "Deploying").
process.exitCode = await runSmokeCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
