import type { Command } from 'commander';
import { registerAnchor } from './anchor.js';
import { registerDoctor } from './doctor.js';
import { registerClockIn } from './clock-in.js';
import { registerClockOut } from './clock-out.js';
import { registerConflict } from './conflict.js';
import { registerRefresh } from './refresh.js';
import { registerAck } from './ack.js';
import { registerCleanup } from './cleanup.js';
import { registerStatus } from './status.js';
import { registerCheck } from './check.js';
import { registerInit } from './init.js';
import { registerVerify } from './verify.js';
import { registerReport } from './report.js';
import { registerOdysseanAnchor } from './odyssean-anchor.js';
import { registerMcp } from './mcp.js';
import { registerSession } from './session.js';
import { registerTrust } from './trust.js';
import { registerReceive } from './receive.js';

/**
 * Every command, one file each. A command file only declares its flags and calls the library lazily,
 * so `hestai <command>` loads just what that command needs.
 */
export const commands: ReadonlyArray<(program: Command) => void> = [
  registerDoctor,
  registerClockIn,
  registerClockOut,
  registerConflict,
  registerRefresh,
  registerAck,
  registerCleanup,
  registerStatus,
  registerCheck,
  registerInit,
  registerVerify,
  registerReport,
  registerAnchor,
  registerOdysseanAnchor,
  registerMcp,
  registerSession,
  registerTrust,
  registerReceive,
];
