// What other features use of admin-ops (the only way in from outside this folder).
export { OpsDashboard } from './components/dashboard/OpsDashboard';
