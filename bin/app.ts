import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { addServiceStacks } from '../lib/infrastructure/service-stack';

// Environment-agnostic stacks: synth needs no account; deploy targets the account of its credentials.
const app = new App();
addServiceStacks(app);
// Synth fails on any cdk-nag finding not acknowledged, with its reason, next to its construct (docs/operations.md).
Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
app.synth();
