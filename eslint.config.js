import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What neither the domain nor the webhook rules import: AWS, HTTP, the adapters and the infrastructure. */
const INFRASTRUCTURE = [
  '@aws-sdk/*',
  '@middy/*',
  'stripe',
  'aws-lambda',
  '**/adapters/**',
  '**/api/**',
  '**/http/**',
  '**/embed-host/**',
  '**/composition/**',
  '**/lib/**',
  '**/resources/**',
  'aws-cdk-lib',
  'aws-cdk-lib/*',
  'constructs',
];

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', '.local', 'coverage', 'test/artifacts', 'sdk/dist'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The domain: the rules of the house, and the events both sides share (functions/domain/events/).
    // The webhooks import the domain, never the other way round.
    files: ['functions/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: INFRASTRUCTURE, message: 'The domain knows nothing of AWS, HTTP or infrastructure.' },
            {
              group: ['**/webhooks/**'],
              message: 'The domain does not import the webhooks; what both use lives in functions/domain/events/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The webhook rules (functions/webhooks/, but for its API document).
    files: ['functions/webhooks/**/*.ts'],
    ignores: ['functions/webhooks/document.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: INFRASTRUCTURE, message: 'The webhook rules know nothing of AWS, HTTP or infrastructure.' },
          ],
        },
      ],
    },
  },
  {
    // Lambda code: what a function bundle may contain. No infrastructure, local runtime or CLI, and no CDK.
    files: ['functions/**/*.ts', 'functions/**/*.tsx'],
    ignores: ['functions/domain/**/*.ts', 'functions/webhooks/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/lib/**', 'aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'],
              message:
                'Lambda code imports neither infrastructure (lib/) nor CDK; shared definitions live in functions/resources/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The embed host is served by the HTTP kit (functions/http/), never by the partner API's pipeline.
    files: ['functions/embed-host/**/*.ts', 'functions/embed-host/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/lib/**', 'aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'],
              message: 'Lambda code imports no infrastructure.',
            },
            {
              group: ['**/api/**'],
              message: 'The embed host shares the HTTP kit (functions/http/), not the partner API.',
            },
          ],
        },
      ],
    },
  },
  {
    // The local runtime and the operator CLI run the Lambda code, never the CDK app.
    files: ['lib/local-runtime/**/*.ts', 'lib/local-runtime/**/*.tsx', 'lib/ops-cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/infrastructure/**', 'aws-cdk-lib', 'aws-cdk-lib/*', 'constructs'],
              message: 'The local runtime and the CLI share definitions through functions/resources/, not the CDK app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'test/**/*.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
