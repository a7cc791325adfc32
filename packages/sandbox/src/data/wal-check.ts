/**
 * Reads a `--data` file's write-ahead log (`<file>-wal`) before SQLite opens it, per SQLite's WAL format
 * (https://www.sqlite.org/fileformat.html#the_write_ahead_log). SQLite reads the log's frames up to the
 * first whose salts or checksum do not match and silently drops every frame after it, committed or not; a
 * damaged frame in the middle would lose every later acknowledged fire without a word. A frame of the log's
 * current generation (its header's salts) past the first bad one, which commits a transaction and whose
 * own checksum follows from the frame before it, was written after the bad frame was whole: that log is
 * damaged, and the file is refused before anything opens it (so it is left exactly as it is).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from "node:fs";

/** The log's header and each frame's header, in bytes. */
const headerBytes = 32;
const frameHeaderBytes = 24;

/** What a damaged log's refusal ends with. */
const leftAsIs = "; the files are left as they were: restore them from a copy, or start with a new --data file";

/** SQLite's cumulative checksum over `data` (a multiple of 8 bytes), continuing from `[s0, s1]`, its words read in the log's byte order. */
function checksum(data: Buffer, [s0, s1]: readonly [number, number], bigEndian: boolean): [number, number] {
  let [a, b] = [s0, s1];
  for (let offset = 0; offset < data.length; offset += 8) {
    const first = bigEndian ? data.readUInt32BE(offset) : data.readUInt32LE(offset);
    const second = bigEndian ? data.readUInt32BE(offset + 4) : data.readUInt32LE(offset + 4);
    a = (a + first + b) >>> 0;
    b = (b + second + a) >>> 0;
  }
  return [a, b];
}

/**
 * The problem of the write-ahead log beside `path`, in words, or `undefined` when there is none, it is a
 * whole log, or it holds no frame SQLite would drop that was committed after a damaged one.
 */
export function writeAheadLogProblem(path: string): string | undefined {
  const log = `${path}-wal`;
  let link = false;
  try {
    link = lstatSync(log).isSymbolicLink();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return `its write-ahead log ${log} cannot be read (${(error as NodeJS.ErrnoException).code})`;
  }
  if (link) return `its write-ahead log ${log} is a symbolic link, which SQLite would write through; remove it (a sandbox never makes one)`;
  const descriptor = openSync(log, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) return `its write-ahead log ${log} is not a regular file`;
    const read = (length: number, position: number) => {
      const buffer = Buffer.alloc(length);
      return readSync(descriptor, buffer, 0, length, position) === length ? buffer : undefined;
    };
    const header = read(headerBytes, 0);
    // A log shorter than its header (emptied by a checkpoint, or never written) holds nothing.
    if (!header) return undefined;
    const magic = header.readUInt32BE(0);
    if (magic !== 0x377f0682 && magic !== 0x377f0683) return `its write-ahead log ${log} is not a SQLite write-ahead log (its magic number is wrong)`;
    const bigEndian = magic === 0x377f0683;
    const pageSize = header.readUInt32BE(8);
    const salts = [header.readUInt32BE(16), header.readUInt32BE(20)] as const;
    const headerSum = checksum(header.subarray(0, 24), [0, 0], bigEndian);
    const frames = Math.floor((stats.size - headerBytes) / (frameHeaderBytes + pageSize));
    if (headerSum[0] !== header.readUInt32BE(24) || headerSum[1] !== header.readUInt32BE(28)) {
      return frames > 0 ? `its write-ahead log ${log} has a damaged header, so SQLite would drop all ${frames} of its frames${leftAsIs}` : undefined;
    }
    let running: [number, number] = headerSum;
    let firstBad: number | undefined;
    for (let index = 0; index < frames; index++) {
      const frame = read(frameHeaderBytes + pageSize, headerBytes + index * (frameHeaderBytes + pageSize));
      if (!frame) break;
      const current = frame.readUInt32BE(8) === salts[0] && frame.readUInt32BE(12) === salts[1];
      const stored: [number, number] = [frame.readUInt32BE(16), frame.readUInt32BE(20)];
      const content = Buffer.concat([frame.subarray(0, 8), frame.subarray(frameHeaderBytes)]);
      if (firstBad === undefined) {
        const sum = checksum(content, running, bigEndian);
        if (current && sum[0] === stored[0] && sum[1] === stored[1]) {
          running = sum;
          continue;
        }
        // Where SQLite stops reading. A frame of an older generation here is the normal end of the log.
        if (!current) return undefined;
        firstBad = index;
        running = stored;
        continue;
      }
      // Past the first bad frame: a commit frame of this generation whose checksum follows from the frame before it.
      const follows = checksum(content, running, bigEndian);
      running = stored;
      if (current && frame.readUInt32BE(4) !== 0 && follows[0] === stored[0] && follows[1] === stored[1]) {
        return `its write-ahead log ${log} is damaged: frame ${firstBad + 1} of ${frames} fails its checksum, and SQLite would drop the transactions committed after it (frame ${index + 1} commits one)${leftAsIs}`;
      }
    }
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}
