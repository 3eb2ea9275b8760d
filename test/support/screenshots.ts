/**
 * Where browser suites save their screenshots. Every run takes them (so a page that fails to render
 * fails the suite), but only `SWITCHBOARD_UPDATE_SCREENSHOTS=1 npm test` writes them into docs/images/:
 * an ordinary run must not change tracked files. `npm test` gives its processes one temporary folder
 * (SWITCHBOARD_SCREENSHOT_DIR) and removes it when it ends; a file run on its own makes its own.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const DOCS_IMAGES = new URL('../../docs/images/', import.meta.url).pathname;

export const SCREENSHOT_DIR =
  process.env.SWITCHBOARD_UPDATE_SCREENSHOTS === '1'
    ? DOCS_IMAGES
    : process.env.SWITCHBOARD_SCREENSHOT_DIR || mkdtempSync(path.join(tmpdir(), 'switchboard-screenshots-'));
mkdirSync(SCREENSHOT_DIR, { recursive: true });

export function screenshotPath(name: string): string {
  return path.join(SCREENSHOT_DIR, name);
}
