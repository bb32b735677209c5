import { ComingSoon } from '../components/ComingSoon';
import { PageHeader } from '../components/PageHeader';

/** A screen a later issue fills in: its title and a friendly placeholder, never a blank page. */
export function ComingSoonPage({ title, description }: { title: string; description: string }) {
  return (
    <div className="page">
      <PageHeader title={title} />
      <ComingSoon description={description} />
    </div>
  );
}
