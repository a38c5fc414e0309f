import { NO_SECRETS, pieceBytes, type OutputPiece, type SecretRedactor } from './secret-redaction.js';

/**
 * The last `capacityBytes` bytes of a stream, in a fixed ring buffer: a job printing a gigabyte
 * costs the runner `capacityBytes` (plus the longest secret), never more.
 *
 * The job's secrets are redacted when the text is taken, on the assembled bytes, so a secret split
 * across chunks is seen whole. The ring keeps `redactor.lookbehindBytes` more than the window: a
 * secret straddling the window's start is then matched whole too, and its marker replaces it,
 * instead of its last characters opening the tail.
 */
export class OutputTail {
  /**
   * Made on the first output, uninitialized (only written bytes are ever read): most jobs print
   * little or nothing, and zero-filling two rings per job touches memory for nothing.
   */
  private ring: Buffer | undefined;
  /** How many of the last bytes the tail keeps: its window and the redactor's lookbehind. */
  readonly ringBytes: number;
  /** Index of the oldest kept byte. */
  private start = 0;
  private keptBytes = 0;
  private seenBytes = 0;

  constructor(
    private readonly capacityBytes: number,
    private readonly redactor: SecretRedactor = NO_SECRETS,
  ) {
    this.ringBytes = capacityBytes === 0 ? 0 : capacityBytes + redactor.lookbehindBytes;
  }

  get totalBytes(): number {
    return this.seenBytes;
  }

  get truncated(): boolean {
    return this.seenBytes > this.capacityBytes;
  }

  /**
   * Counts `byteCount` bytes of the stream as seen without keeping them, before whatever is
   * written next: a tail kept by another process (the job reaper's) arrives as the count of the
   * bytes it dropped and then its last bytes.
   */
  skip(byteCount: number): void {
    this.seenBytes += byteCount;
  }

  write(chunk: Uint8Array): void {
    this.seenBytes += chunk.length;
    const capacity = this.ringBytes;
    if (capacity === 0 || chunk.length === 0) return;
    this.ring ??= Buffer.allocUnsafe(capacity);
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
   * The last `capacityBytes` as UTF-8 text, secrets redacted: invalid sequences become U+FFFD, and
   * so does NUL, which a PostgreSQL text column cannot hold. A tail that was cut starts at the next
   * whole character; a marker at the cut is kept whole or dropped whole, never a part of one.
   */
  toText(): string {
    if (this.ring === undefined || this.keptBytes === 0) return '';
    const end = this.start + this.keptBytes;
    const kept = end <= this.ringBytes
      ? this.ring.subarray(this.start, end)
      : Buffer.concat([this.ring.subarray(this.start), this.ring.subarray(0, end - this.ringBytes)]);
    const windowStart = Math.max(0, kept.length - this.capacityBytes);
    const pieces = this.redactor.isEmpty ? [{ raw: kept, start: 0 }] : this.redactor.split(kept);
    const window = keepLastBytes(dropBefore(pieces, windowStart), this.capacityBytes);
    if (this.truncated && window[0] && 'raw' in window[0]) window[0] = { ...window[0], raw: skipContinuationBytes(window[0].raw) };
    return Buffer.concat(window.map(pieceBytes)).toString('utf8').replaceAll('\u0000', '\uFFFD');
  }
}

/** The pieces from byte `offset` of the kept bytes on; a marker overlapping the offset stays whole. */
function dropBefore(pieces: OutputPiece[], offset: number): OutputPiece[] {
  const kept: OutputPiece[] = [];
  for (const piece of pieces) {
    if ('marker' in piece) {
      if (piece.end > offset) kept.push(piece);
    } else if (piece.start + piece.raw.length > offset) {
      const skip = Math.max(0, offset - piece.start);
      kept.push({ raw: piece.raw.subarray(skip), start: piece.start + skip });
    }
  }
  return kept;
}

/**
 * Markers can be longer than what they replace; the text still fits `capacityBytes`, cut from the
 * front: raw bytes by the byte, markers whole.
 */
function keepLastBytes(pieces: OutputPiece[], capacityBytes: number): OutputPiece[] {
  let excess = pieces.reduce((total, piece) => total + pieceBytes(piece).length, 0) - capacityBytes;
  const kept = [...pieces];
  while (excess > 0 && kept.length > 0) {
    const first = kept[0]!;
    if ('marker' in first || first.raw.length <= excess) {
      excess -= pieceBytes(first).length;
      kept.shift();
    } else {
      kept[0] = { raw: first.raw.subarray(excess), start: first.start + excess };
      excess = 0;
    }
  }
  return kept;
}

function skipContinuationBytes(bytes: Buffer): Buffer {
  let skip = 0;
  while (skip < 3 && skip < bytes.length && (bytes[skip]! & 0xc0) === 0x80) skip += 1;
  return bytes.subarray(skip);
}
