/**
 * Whether a byte array is the whole of its buffer (never a slice of Node's pooled slab, of a larger read, or shared
 * memory): only such a buffer may be moved to or from a thread, since moving it empties every other view of it.
 */
export const ownsItsMemory = (bytes: ArrayBufferView): bytes is ArrayBufferView & { buffer: ArrayBuffer } =>
  bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;

/** What a job's ask adds to move these bytes to the thread: nothing when they may not move (they are copied then). */
export const moving = (bytes: ArrayBufferView): { transfer?: ArrayBuffer[] } => (ownsItsMemory(bytes) ? { transfer: [bytes.buffer] } : {});
