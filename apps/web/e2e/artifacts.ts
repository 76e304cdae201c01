// What browser tests leave behind and check on every screen: screenshots under .test-reports/ and an
// axe-core scan with no serious or critical violations.
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@strm/testing';

const require = createRequire(import.meta.url);
const axeSource: string = (require('axe-core') as { source: string }).source;
const reports = fileURLToPath(new URL('../../../.test-reports/screenshots', import.meta.url));

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1366, height: 900 },
} as const;

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(reports, { recursive: true });
  await page.screenshot({ path: join(reports, `${name}.png`), fullPage: true });
}

export interface A11yViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Runs axe-core in the page; answers the serious and critical violations (none is the goal). */
export async function seriousA11yViolations(page: Page): Promise<A11yViolation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Result = {
      violations: Array<{
        id: string;
        impact: string | null;
        help: string;
        nodes: Array<{ target: string[] }>;
      }>;
    };
    const axe = (window as unknown as { axe: { run(): Promise<Result> } }).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => n.target.join(' ')),
      }));
  });
}
