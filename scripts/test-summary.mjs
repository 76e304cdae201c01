#!/usr/bin/env node
// Sums the test counts of every runner in this workspace into the one closing line CI reads:
// vitest JSON reports and cargo's own summaries, all written under .test-reports/ by the test scripts.
//   --reset   clears the reports before a run
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(fileURLToPath(new URL('..', import.meta.url)), '.test-reports');
if (process.argv.includes('--reset')) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.exit(0);
}

let passed = 0;
let failed = 0;
let skipped = 0;
// Reports only: the browser tests also keep screenshots here, in a folder.
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') || f.endsWith('.cargo.txt'))) {
  const text = readFileSync(join(dir, file), 'utf8');
  if (file.endsWith('.json')) {
    const report = JSON.parse(text);
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  } else if (file.endsWith('.cargo.txt')) {
    for (const m of text.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g)) {
      passed += Number(m[1]);
      failed += Number(m[2]);
      skipped += Number(m[3]);
    }
  }
}
console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
