export function greet(name: string): string {
  return 'hi ' + name;
}

export class Box {
  constructor(public value: number) {}
  open(): number {
    return this.value;
  }
  twice(): number {
    return this.open() + this.open();
  }
}

export interface Shape {
  area(): number;
}

export function total(shapes: Shape[]): number {
  let sum = 0;
  for (const s of shapes) sum += s.area();
  return sum;
}
