export { CALCULATOR_MESSAGES, MiningCalculator } from './MiningCalculator.tsx';
