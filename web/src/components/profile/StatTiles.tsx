import { useQuery } from '@tanstack/react-query';
import type { UserStats } from '@hoptrack/proto';
import { Link } from 'react-router';
import { hoursLabel } from '../../lib/format';
import { userStatsQuery } from '../../lib/socialApi';

export interface Tile {
  label: string;
  value: string;
  to?: string;
}

function tilesOf(userId: string, stats: UserStats | undefined): Tile[] {
  const show = (value: number | undefined, format: (n: number) => string = String) =>
    value === undefined ? '–' : format(value);
  const links = followLinks(userId);
  return [
    { label: 'Beer Sessions', value: show(stats?.totalSessions) },
    { label: 'Hours Drinking', value: show(stats?.totalHours, hoursLabel) },
    { label: 'Followers', value: show(stats?.followersCount), to: links.followers },
    { label: 'Following', value: show(stats?.followingCount), to: links.following },
  ];
}

/** Beer Sessions, Hours Drinking (one decimal), Followers, Following; the last two open the follow lists. */
export function StatTiles({ userId }: { userId: string }) {
  const stats = useQuery(userStatsQuery(userId));
  return (
    <section className="stat-section" aria-label="Stats" aria-busy={stats.isPending}>
      <StatTileList tiles={tilesOf(userId, stats.data)} />
      {stats.isError && (
        <p className="stat-section__error" role="alert">
          Failed to fetch stats
        </p>
      )}
    </section>
  );
}

/** The grid of tiles: a value over its label, a link when the tile has a target. */
export function StatTileList({ tiles }: { tiles: readonly Tile[] }) {
  return (
    <ul className="stat-tiles">
      {tiles.map((tile) => (
        <li key={tile.label}>
          {tile.to ? (
            <Link to={tile.to} className="stat-tile stat-tile--link">
              <TileContent tile={tile} />
            </Link>
          ) : (
            <div className="stat-tile">
              <TileContent tile={tile} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Where a user's Followers and Following tiles lead. */
export function followLinks(userId: string): { followers: string; following: string } {
  const followers = `/users/${userId}/followers`;
  return { followers, following: `${followers}?tab=following` };
}

function TileContent({ tile }: { tile: Tile }) {
  return (
    <>
      <span className="stat-tile__value">{tile.value}</span>
      <span className="stat-tile__label">{tile.label}</span>
    </>
  );
}
