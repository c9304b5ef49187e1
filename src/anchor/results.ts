/** The result shapes of the anchor entry points (seed 001 AnchorHandshakeResult, seed 002 OdysseanAnchorResult). */
import type { Strictness } from '../records/anchor.js';

export const STAGES = ['identity', 'context', 'proof'] as const;
export type AnchorStage = (typeof STAGES)[number];
export const MODES = ['full', 'lite', 'untracked'] as const;
export type AnchorMode = (typeof MODES)[number];

/** What a successful proof grants: the anchor file that unlocks commits and privileged tools for the token. */
export interface WorkPermit {
  token: string;
  role: string;
  tier: Strictness;
  /** Workspace-relative path of the promoted anchor.json. */
  anchor_file: string;
  /** The `HestAI-Anchor` trailer value (`sha256:` + 16 hex). */
  anchor_digest: string;
  validated_at: string;
}

/** Seed 001's AnchorHandshakeResult, plus mode, strictness, retries_left, available_roles, warnings and work_permit. */
export interface AnchorHandshakeResult {
  success: boolean;
  stage: AnchorStage;
  token: string | null;
  mode: AnchorMode;
  strictness: Strictness;
  constitution_path: string | null;
  constitution_excerpt: string | null;
  /** The server-authoritative ARM as a `## ARM` section. */
  server_arm: string | null;
  /** The canonical anchor (proof stage). */
  anchor: string | null;
  next_step: string;
  /** The payload template for the next stage, or the corrected template after a failure. */
  template: string | null;
  /** One line per problem: `CODE: message`. */
  errors: string[];
  guidance: string;
  terminal: boolean;
  /** Retries left for the current stage (null when nothing is counted: untracked mode, or success). */
  retries_left: number | null;
  /** Roles with a constitution (listed when the requested one has none). */
  available_roles?: string[];
  warnings: string[];
  work_permit: WorkPermit | null;
}

/** Seed 002's OdysseanAnchorResult, plus retry_count, terminal and warnings. */
export interface OdysseanAnchorResult {
  validated: boolean;
  canonical_anchor: string;
  errors: string[];
  guidance: string;
  enforcement: {
    status: 'UNLOCKED' | 'LOCKED';
    session_id: string;
    anchor_file: string | null;
    anchor_digest: string | null;
    reason: string;
  };
  /** Failed submissions of this session's vector so far (server-side count). */
  retry_count: number;
  terminal: boolean;
  warnings: string[];
}
