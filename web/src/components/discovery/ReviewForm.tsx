import { createReviewBody, type CreateReviewBody, type Review } from '@hoptrack/proto';
import { REVIEW_TEXT_MAX } from '@hoptrack/proto/constants';
import { useId, useState, type FormEvent } from 'react';
import { errorStatus, serverMessage } from '../../api';
import { catalogueApi, REVIEW_WRITES_AFFECT } from '../../lib/catalogueApi';
import { useToast } from '../../lib/toast';
import { useSocialAction } from '../../lib/useSocialAction';
import { TextAreaField } from '../TextAreaField';
import { StarPicker } from './StarRating';
import { FormActions } from '../FormActions';

const CONFLICT_FALLBACK = 'You have already reviewed this bar';

interface ReviewFormProps {
  barId: string;
  barName: string;
  onCancel: () => void;
}

/**
 * 'Write a review': 1 to 5 stars (required; 'Post review' waits for them)
 * and optional text up to REVIEW_TEXT_MAX characters with a counter. Success
 * toasts and refreshes the bar, whose reviews then hold the viewer's own, so
 * the caller stops showing the form. A failure toasts the server's message;
 * a second review of the same bar (409) also says so in the form.
 */
export function ReviewForm({ barId, barName, onCancel }: ReviewFormProps) {
  const toast = useToast();
  const [rating, setRating] = useState<number | null>(null);
  const [text, setText] = useState('');
  const ratingLabelId = useId();
  const countId = useId();

  const create = useSocialAction({
    mutationFn: (body: CreateReviewBody) => catalogueApi.createReview(barId, body),
    affects: REVIEW_WRITES_AFFECT,
    failure: { fallback: 'Failed to post your review. Please try again.' },
    onSuccess: (review: Review) => {
      toast({ title: 'Review posted', description: `You rated ${barName} ${review.rating} out of 5.` });
    },
  });
  const conflict = errorStatus(create.error) === 409 ? serverMessage(create.error, CONFLICT_FALLBACK) : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = createReviewBody.safeParse({ rating, reviewText: text });
    if (!parsed.success || create.isPending) return;
    create.mutate(parsed.data);
  };

  return (
    <form className="form review-form" aria-label="Write a review" noValidate onSubmit={submit}>
      <div className="field">
        <span id={ratingLabelId} className="field__label">
          Your rating
        </span>
        <StarPicker value={rating} onChange={setRating} labelledBy={ratingLabelId} disabled={create.isPending} autoFocus />
      </div>
      <div className="review-form__text">
        <TextAreaField
          label="Your review (optional)"
          placeholder="What did you drink, eat, like?"
          rows={4}
          maxLength={REVIEW_TEXT_MAX}
          value={text}
          aria-describedby={countId}
          disabled={create.isPending}
          onChange={(event) => setText(event.target.value)}
        />
        <span id={countId} className="review-form__count">
          {text.length}/{REVIEW_TEXT_MAX}
        </span>
      </div>
      {conflict && (
        <p className="field__error" role="alert">
          {conflict}
        </p>
      )}
      <FormActions onCancel={onCancel} pending={create.isPending} submitLabel="Post review" pendingLabel="Posting..." submitDisabled={rating === null} />
    </form>
  );
}
