/**
 * The synthesized templates against what CloudFormation's own per-region resource schemas
 * refuse. Those schemas are checked by cfn-lint (Python), which neither npm nor Debian
 * ships, so CI cannot install it and a test that ran it only where it happened to be
 * installed was skipped on every CI run: the findings it made stand here as checks that
 * always run (E3002, the dashboard's Tags), and cfn-lint is a step of the deploy checklist
 * (docs/operations.md, "Deploying").
 */
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
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
});
