// What other features use of market (the only way in from outside this folder).
export { marketKeys } from './api/keys';
export { dataDiskGb, systemDiskGb } from './market-item';
