import { parseRule, type PermissionRule } from '../permissions/rule';

/**
 * The tools a running skill pre-approves (its `allowed-tools`), as session allow rules for the
 * agent's permission gate. They join the other rules, so a deny or ask rule from settings still wins
 * (the gate checks deny and ask before allow), and they last until the turn ends (`clear`).
 */
export class SkillGrants {
  private granted: PermissionRule[] = [];

  constructor(private readonly projectRoot: string) {}

  /** Adds a skill's rules; each was checked when the skill was parsed, a bad one is skipped. */
  add(texts: readonly string[]): string[] {
    const added: string[] = [];
    for (const text of texts) {
      if (this.granted.some((r) => r.text === text)) continue;
      try {
        this.granted.push(parseRule(text, 'session', 'allow', this.projectRoot));
        added.push(text);
      } catch {
        // parseSkillFile refuses a file with such a rule; nothing to grant.
      }
    }
    return added;
  }

  rules(): readonly PermissionRule[] {
    return this.granted;
  }

  clear(): void {
    this.granted = [];
  }
}
