import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take the longest on CI's 2 cores (a minute or more each, longest first): started first, they run
 * beside the many short files instead of after them. On a fresh clone vitest has no durations of its own and keeps
 * the files' order, so one of these starting last would leave a worker idle for its length.
 */
const SLOWEST_FIRST = [
  'test/faults/restart-persistence.test.ts',
  'test/e2e/module-pages.test.ts',
  'test/bundles/deployed-bundles.test.ts',
  'test/contract/partner-api-contract.test.ts',
  'test/e2e/spending-loop.test.ts',
];

const rankOf = (file: TestSpecification): number => {
  const rank = SLOWEST_FIRST.findIndex((slow) => file.moduleId.endsWith(slow));
  return rank === -1 ? SLOWEST_FIRST.length : rank;
};

/** vitest's own order (failed, then longest, when it has durations), with the slowest files moved to the front. */
export default class SlowestFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files)).sort((a, b) => rankOf(a) - rankOf(b));
  }
}
