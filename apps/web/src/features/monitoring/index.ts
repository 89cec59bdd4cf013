// What other features use of monitoring (the only way in from outside this folder).
export { useGpuSparklines } from './api/sparklines';
export { GpuSparkline } from './components/GpuSparkline';
export { HostMetricsDrawer, InstanceMetricsDrawer } from './lazy';
