import { z } from 'zod';
import {
  answerInvitationBody,
  challenge,
  challengeDetail,
  challengeInvitation,
  challengeInvitations,
  challengesQuery,
  completedChallenge,
  completedChallengesQuery,
  inviteBody,
  joinChallengeBody,
  myChallengesQuery,
} from '../challenges';
import { idParams } from '../common';
import { defineRoutes } from './define';

/** Daily challenges, joining, the completed lists and invitations between friends (issue 23). */
export const challengesApi = defineRoutes('challenges', {
  today: {
    method: 'GET',
    path: '/api/challenges',
    summary: "Today's challenges in the viewer's time zone, with their progress",
    query: challengesQuery,
    responses: { 200: z.array(challenge) },
  },
  detail: {
    method: 'GET',
    path: '/api/challenges/:id',
    summary: "One challenge's page: progress, the friends in it",
    params: idParams,
    query: challengesQuery,
    responses: { 200: challengeDetail },
  },
  join: {
    method: 'POST',
    path: '/api/challenges/:id/join',
    summary: 'Join a challenge of today',
    params: idParams,
    body: joinChallengeBody,
    responses: { 200: challenge },
  },
  mine: {
    method: 'GET',
    path: '/api/me/challenges',
    summary: "The viewer's challenges, joined or completed",
    query: myChallengesQuery,
    responses: { 200: z.array(challenge) },
  },
  completedOf: {
    method: 'GET',
    path: '/api/users/:id/challenges',
    summary: "A person's completed challenges, as their privacy allows",
    params: idParams,
    query: completedChallengesQuery,
    responses: { 200: z.array(completedChallenge) },
  },
  invite: {
    method: 'POST',
    path: '/api/challenges/:id/invitations',
    summary: 'Invite a friend to a challenge',
    params: idParams,
    query: challengesQuery,
    body: inviteBody,
    responses: { 201: challengeInvitation },
  },
  invitations: {
    method: 'GET',
    path: '/api/challenge-invitations',
    summary: "The viewer's invitations, sent and received",
    responses: { 200: challengeInvitations },
  },
  answerInvitation: {
    method: 'PATCH',
    path: '/api/challenge-invitations/:id',
    summary: 'Accept or decline an invitation',
    params: idParams,
    body: answerInvitationBody,
    responses: { 200: challengeInvitation },
  },
});
