// What other features use of admin-ops (the only way in from outside this folder).

export { ComputedAt } from './components/ComputedAt';
export { OpsDashboard } from './components/dashboard/OpsDashboard';
