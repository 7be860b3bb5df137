/**
 * The synthesized templates against CloudFormation's own per-region resource schemas.
 * No maintained npm package checks those, so the test runs cfn-lint (Python) where it is
 * installed (`pip install cfn-lint`); the Dashboard check below stands for its E3002 finding
 * everywhere else.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addServiceStacks } from '../../lib/infrastructure/service-stack';

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stacks = Object.values(addServiceStacks(app));
const assembly = app.synth();
const templates = stacks.map((stack) => ({
  name: stack.stackName,
  template: assembly.getStackByName(stack.stackName).template as {
    Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
  },
}));

const cfnLint = await promisify(execFile)('cfn-lint', ['--version']).then(
  () => true,
  () => false,
);

describe('the synthesized templates', () => {
  it('put no Tags on the CloudWatch dashboard, which the us-east-1 schema does not take', () => {
    for (const { name, template } of templates) {
      const dashboards = Object.values(template.Resources).filter((r) => r.Type === 'AWS::CloudWatch::Dashboard');
      expect(dashboards, name).toHaveLength(1);
      expect(
        dashboards.map((dashboard) => dashboard.Properties?.Tags),
        name,
      ).toEqual([undefined]);
    }
  });

  describe.skipIf(!cfnLint)('cfn-lint, us-east-1', () => {
    let folder: string;
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'templates-'));
      for (const { name, template } of templates)
        await writeFile(join(folder, `${name}.json`), JSON.stringify(template));
    });
    afterAll(() => rm(folder, { recursive: true, force: true }));

    it('finds no error', { timeout: 300_000 }, async () => {
      // us-east-1's schema is the one without the dashboard's Tags; one region keeps this
      // under a minute (ALL_REGIONS takes four on a busy machine, and finds only E3006: the
      // regions without HTTP APIs or SES identities, which cannot host the service at all).
      // Warnings (W3005, a DependsOn CDK adds beside a GetAtt) are CDK's own.
      const run = promisify(execFile)(
        'cfn-lint',
        [
          '--regions',
          'ALL_REGIONS',
          '--ignore-checks',
          'W',
          'E3006',
          '--format',
          'parseable',
          '--',
          ...templates.map(({ name }) => join(folder, `${name}.json`)),
        ],
        { maxBuffer: 16 * 1024 * 1024 },
      );
      const findings = await run.then(
        ({ stdout }) => stdout,
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect(findings.trim().split('\n').filter(Boolean)).toEqual([]);
    });
  });
});
