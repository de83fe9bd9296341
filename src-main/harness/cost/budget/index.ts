export {
  SessionBudget,
  DEFAULT_MORE_MICROS,
  limitName,
  usd,
  type BudgetAnswer,
  type BudgetAsk,
  type BudgetDecision,
  type BudgetGate,
  type SessionBudgetOptions,
} from './session-budget';
export { DaySpend, localDayOf, type DaySpendSource, type DayTotals } from './day-spend';
export { limitsOf, readBudgetLimits, usdToMicros, type Limits, type LimitsRead } from './limits';
