import { access, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Writer } from 'steno';

/** Sealed plates, by id: plates/<id>.png and plates/<id>.json (the chart_state), written with write-then-rename. */
export class PlateFiles {
  readonly folder: string;

  constructor(dir: string) {
    this.folder = resolve(dir, 'plates');
  }

  file(id: string, ext: 'png' | 'json'): string {
    return join(this.folder, `${id}.${ext}`);
  }

  async has(id: string): Promise<boolean> {
    return access(this.file(id, 'json')).then(
      () => true,
      () => false,
    );
  }

  /** The PNG first, the chart_state last: a plate whose JSON is there is whole. */
  async put(id: string, png: Uint8Array, chartState: string): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    await new Writer(this.file(id, 'png')).write(png);
    await new Writer(this.file(id, 'json')).write(chartState);
  }
}
