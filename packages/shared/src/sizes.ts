/** Bytes in a GiB: image and disk sizes are shown in GB of 1024³ bytes, as Docker reports them. */
export const GIB = 1024 ** 3;
/** Bytes in a MiB: nvidia-smi reports GPU memory in MiB (monitoring samples keep it so). */
export const MIB = 1024 ** 2;

/** A byte count as GB with one decimal ("1.5"), the same in the console and in server messages. */
export const gbOf = (bytes: number) => (bytes / GIB).toFixed(1);
