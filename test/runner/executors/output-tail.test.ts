import { describe, expect, it } from 'vitest';
import { OutputTail } from '../../../src/runner/executors/output-tail.js';

function tailOf(capacityBytes: number, chunks: Array<string | number[]>): OutputTail {
  const tail = new OutputTail(capacityBytes);
  for (const chunk of chunks) tail.write(typeof chunk === 'string' ? Buffer.from(chunk) : Uint8Array.from(chunk));
  return tail;
}

describe('OutputTail', () => {
  it.each([
    { capacity: 8, chunks: [], text: '', truncated: false },
    { capacity: 8, chunks: ['abc', 'def'], text: 'abcdef', truncated: false },
    { capacity: 8, chunks: ['abcdef', 'ghij'], text: 'cdefghij', truncated: true },
    { capacity: 8, chunks: ['abcdef', 'ghij', 'klm', 'n'], text: 'ghijklmn', truncated: true },
    { capacity: 4, chunks: ['ab', 'cdefghij'], text: 'ghij', truncated: true },
    { capacity: 0, chunks: ['abc'], text: '', truncated: true },
    // A cut through a multi-byte character starts the text at the next whole one.
    { capacity: 4, chunks: ['aé€'], text: '€', truncated: true },
    { capacity: 4, chunks: [[0x61, 0xff, 0x00, 0x62]], text: 'a\uFFFD\uFFFDb', truncated: false },
  ])('keeps $text from $chunks with capacity $capacity', ({ capacity, chunks, text, truncated }) => {
    const tail = tailOf(capacity, chunks);
    expect(tail.toText()).toBe(text);
    expect(tail.truncated).toBe(truncated);
  });

  // The job reaper's process keeps the last ringBytes of a job's stream and reports how many came
  // before them (job-reaper.ts): the tail rebuilt from that is the tail of the whole stream.
  it.each([
    { capacity: 8, chunks: ['abcdef', 'ghij', 'klm', 'n'] },
    { capacity: 4, chunks: ['aé€'] },
    { capacity: 4, chunks: ['ab'] },
    { capacity: 0, chunks: ['abc'] },
  ])('is the same rebuilt from its last bytes and the count before them ($chunks, capacity $capacity)', ({ capacity, chunks }) => {
    const whole = tailOf(capacity, chunks);
    const bytes = Buffer.from(chunks.join(''));
    const rebuilt = new OutputTail(capacity);
    const kept = bytes.subarray(Math.max(0, bytes.length - rebuilt.ringBytes));
    rebuilt.skip(bytes.length - kept.length);
    rebuilt.write(kept);
    expect([rebuilt.toText(), rebuilt.truncated, rebuilt.totalBytes]).toEqual([whole.toText(), whole.truncated, whole.totalBytes]);
  });

  it('counts every byte it saw', () => {
    expect(tailOf(4, ['abc', 'defgh']).totalBytes).toBe(8);
  });
});
