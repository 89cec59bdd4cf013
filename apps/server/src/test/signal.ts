/** A promise and the function that resolves it: one side waits on `fired`, the other calls `fire`. */
export function signal(): { fired: Promise<void>; fire: () => void } {
  let fire = () => {};
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fired, fire };
}
