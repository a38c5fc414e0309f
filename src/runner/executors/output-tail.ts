/**
 * The last `capacityBytes` bytes of a stream, in a fixed ring buffer: a job printing a gigabyte
 * costs the runner `capacityBytes`, never more.
 */
export class OutputTail {
  private readonly ring: Buffer;
  /** Index of the oldest kept byte. */
  private start = 0;
  private keptBytes = 0;
  private seenBytes = 0;

  constructor(private readonly capacityBytes: number) {
    this.ring = Buffer.alloc(capacityBytes);
  }

  get totalBytes(): number {
    return this.seenBytes;
  }

  get truncated(): boolean {
    return this.seenBytes > this.keptBytes;
  }

  write(chunk: Uint8Array): void {
    this.seenBytes += chunk.length;
    const capacity = this.capacityBytes;
    if (capacity === 0 || chunk.length === 0) return;
    if (chunk.length >= capacity) {
      this.ring.set(chunk.subarray(chunk.length - capacity));
      this.start = 0;
      this.keptBytes = capacity;
      return;
    }
    const writeAt = (this.start + this.keptBytes) % capacity;
    const firstPart = Math.min(chunk.length, capacity - writeAt);
    this.ring.set(chunk.subarray(0, firstPart), writeAt);
    if (firstPart < chunk.length) this.ring.set(chunk.subarray(firstPart), 0);
    const overflow = this.keptBytes + chunk.length - capacity;
    if (overflow > 0) {
      this.start = (this.start + overflow) % capacity;
      this.keptBytes = capacity;
    } else {
      this.keptBytes += chunk.length;
    }
  }

  /**
   * The kept bytes as UTF-8 text: invalid sequences become U+FFFD, and so does NUL, which a
   * PostgreSQL text column cannot hold. A tail that was cut starts at the next whole character.
   */
  toText(): string {
    const end = this.start + this.keptBytes;
    let bytes = end <= this.capacityBytes
      ? this.ring.subarray(this.start, end)
      : Buffer.concat([this.ring.subarray(this.start), this.ring.subarray(0, end - this.capacityBytes)]);
    if (this.truncated) {
      let skip = 0;
      while (skip < 3 && skip < bytes.length && (bytes[skip]! & 0xc0) === 0x80) skip += 1;
      bytes = bytes.subarray(skip);
    }
    return bytes.toString('utf8').replaceAll('\u0000', '\uFFFD');
  }
}
