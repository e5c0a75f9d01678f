import { z } from 'zod';
import type { SkillUse, UsageRow } from './store.js';

// The usage ledger's `skills` column, the same on every store: the turn's skills as JSON text,
// NULL when it activated none (and on rows written before the column existed).

const skillsSchema = z.array(z.strictObject({ name: z.string(), hash: z.string() }));

/** A ledger row as a store reads it back, before its skills are parsed. */
export type StoredUsageRow = Omit<UsageRow, 'skills'> & { skills: string | null };

export function skillsColumn(skills: readonly SkillUse[] | undefined): string | null {
  return skills === undefined || skills.length === 0 ? null : JSON.stringify(skills);
}

export function usageRowOf({ skills, ...row }: StoredUsageRow): UsageRow {
  if (skills === null) return row;
  const parsed = skillsSchema.safeParse(JSON.parse(skills));
  if (!parsed.success) throw new Error(`a usage ledger row of turn ${row.turnId} has a skills column that is not a list of {name, hash}: ${skills}`);
  return { ...row, skills: parsed.data };
}
