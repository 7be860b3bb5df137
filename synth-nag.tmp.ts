import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { addServiceStacks } from './lib/infrastructure/service-stack';
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
addServiceStacks(app);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
try { app.synth(); console.log('OK'); } catch (e) { console.log(String(e).slice(0, 6000)); }
