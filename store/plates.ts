import type { Backend } from './backend.js';
import type { Blobs } from './blobs.js';

/** Sealed plates, by id: plates/<id>.png and plates/<id>.json (the chart_state), each written whole or not at all. */
export class PlateFiles {
  constructor(
    private readonly kept: Blobs,
    private readonly alone: Backend['alone'],
  ) {}

  /** A plate's PNG or chart_state, or null when there is no such plate (or it is not whole yet). */
  async read(id: string, ext: 'png' | 'json'): Promise<Buffer | null> {
    if (ext === 'png' && !(await this.has(id))) return null;
    return this.kept.read(`${id}.${ext}`);
  }

  has(id: string): Promise<boolean> {
    return this.kept.has(`${id}.json`);
  }

  /**
   * Keeps a plate once. Seals of one id run one after another, so of two seals of the same plate at once one
   * writes it and the other finds it there. `count` runs once the plate is whole; when it throws (a refusal or a
   * failure), the plate is taken back and the error passed on. Answers true when this call sealed the plate,
   * false when it was there already (and `count` did not run).
   */
  seal(id: string, png: Uint8Array, chartState: string, count: () => Promise<void>): Promise<boolean> {
    return this.alone(`plate-${id}`, async () => {
      if (await this.has(id)) return false;
      await this.put(id, png, chartState);
      try {
        await count();
      } catch (error) {
        await this.remove(id);
        throw error;
      }
      return true;
    });
  }

  /** The PNG first, the chart_state last: a plate whose JSON is there is whole. */
  private async put(id: string, png: Uint8Array, chartState: string): Promise<void> {
    await this.kept.write(`${id}.png`, png);
    await this.kept.write(`${id}.json`, Buffer.from(chartState));
  }

  /** The chart_state first, so a plate half taken back reads as not there. */
  private async remove(id: string): Promise<void> {
    await this.kept.remove(`${id}.json`);
    await this.kept.remove(`${id}.png`);
  }
}
