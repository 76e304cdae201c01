// Shared UI primitives (Tailwind CSS). Every screen builds on these so the product looks and behaves
// the same everywhere: keyboard focus rings, labelled fields with wired errors, announced banners.
export { Alert } from './Alert.tsx';
export { Badge } from './Badge.tsx';
export { BarChart, type BarSeries, niceTicks } from './BarChart.tsx';
export { Button, type ButtonProps } from './Button.tsx';
export { Card, CardTitle } from './Card.tsx';
export { cn } from './cn.ts';
export { ErrorBoundary } from './ErrorBoundary.tsx';
export { Field, Input, Select, Textarea } from './Field.tsx';
export { ProgressBar } from './ProgressBar.tsx';
export { Table } from './Table.tsx';
export { PageSpinner, Spinner } from './Spinner.tsx';
export { WhenNear } from './WhenNear.tsx';
export { ToastProvider, useToast } from './Toast.tsx';
