#!/usr/bin/env node
import { main } from './main.js';

try {
  process.exitCode = await main(process.argv);
} catch (error) {
  process.stderr.write(
    `hestai: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 2;
}
