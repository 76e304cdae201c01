// A node:test reporter that writes the summary scripts/test-summary.mjs sums, in the shape of a vitest JSON
// report (numPassedTests, numFailedTests, numPendingTests, numTodoTests), for the scripts' own tests:
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=./scripts/node-test-report.mjs --test-reporter-destination=.test-reports/<name>.json …
export default async function* report(source) {
  const counts = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 };
  for await (const event of source) {
    // Suites (describe) report as tests too; only leaves count, as vitest counts them.
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') continue;
    if (event.data.skip) counts.numPendingTests += 1;
    else if (event.data.todo) counts.numTodoTests += 1;
    else if (event.type === 'test:pass') counts.numPassedTests += 1;
    else counts.numFailedTests += 1;
  }
  yield `${JSON.stringify(counts)}\n`;
}
