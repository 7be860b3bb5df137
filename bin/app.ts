import { App } from 'aws-cdk-lib';
import { addServiceStacks } from '../lib/infrastructure/service-stack';

// Environment-agnostic stacks: synth needs no account; deploy targets the account of its credentials.
const app = new App();
addServiceStacks(app);
app.synth();
