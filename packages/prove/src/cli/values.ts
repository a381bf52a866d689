import type { OptionValue } from './define.js';
import { UsageError } from './parse.js';

/** Typed access to parsed options (the parser has checked them), and cross-option problems, thrown at `done()`. */
export class Values {
  private readonly problems: string[] = [];
  constructor(private readonly options: Readonly<Record<string, OptionValue>>) {}

  string(name: string): string | undefined {
    const v = this.options[name];
    return typeof v === 'string' ? v : undefined;
  }

  /** A number option (declared with `number` in its definition). */
  number(name: string): number | undefined {
    const v = this.options[name];
    return typeof v === 'number' ? v : undefined;
  }

  flag(name: string): boolean {
    return this.options[name] === true;
  }

  list(name: string): string[] {
    const v = this.options[name];
    return Array.isArray(v) ? [...(v as string[])] : typeof v === 'string' ? [v] : [];
  }

  /** A choice option (declared with `choices`). */
  choice<T extends string>(name: string, _choices: readonly T[]): T | undefined {
    return this.string(name) as T | undefined;
  }

  problem(message: string): void {
    this.problems.push(message);
  }

  done(): void {
    if (this.problems.length > 0) throw new UsageError(this.problems);
  }
}
