// Preloaded into the API by start-script.test.ts (NODE_OPTIONS=--import): right after the process writes its
// ready line, its main thread stops for a second, as a process on a busy machine may be descheduled there.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const written = write(chunk, ...rest);
  if (String(chunk).includes('is ready at'))
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  return written;
};
