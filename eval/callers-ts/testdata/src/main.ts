import { greet, Box, total } from './lib';
import * as lib from './lib';

export function run(cb: () => void): void {
  greet('a');
  const b = new Box(1);
  b.open();
  lib.greet('b');
  total([]);
  cb();
  const anyv: any = b;
  anyv.open();
}

export function shadow(): void {
  const greet = (x: number) => x;
  greet(2);
}
